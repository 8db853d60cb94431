# a state database a newer quotaflow wrote (its layout stamp, PRAGMA
# user_version, above this one's) is refused and left unchanged: it was
# opened and written to under the older layout
setup-sh: rm -f "$tmp/cnd.db"* && sqlite3 "$tmp/cnd.db" "create table objects(res TEXT NOT NULL, ns TEXT NOT NULL, name TEXT NOT NULL, rv INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY(res, ns, name)); create table events(id INTEGER PRIMARY KEY, json TEXT NOT NULL); create table meta(k TEXT PRIMARY KEY, v INTEGER NOT NULL); pragma user_version = 2" && cp "$tmp/cnd.db" "$tmp/cnd.orig"
args: controller --db "$tmp/cnd.db" --listen 127.0.0.1:0
exit: 2
stderr-has: /cnd.db: error: was written by a newer quotaflow (state layout 2; this one reads layout 1 and older): refused, left as it is [QF560]
stderr-has: hint: run the quotaflow that wrote it, or give --db a new path
stderr-not: listening
after-sh: cmp "$tmp/cnd.db" "$tmp/cnd.orig"
