# controller restarted on its database with a --git-ref that no longer
# resolves: a warning, not a start-up error (the stored policy stays in
# force and sync retries the ref); here another option fails, so the run
# exits 2, says both, and leaves the existing database where it was
setup-sh: mkdir -p "$tmp/crg" && git init -q -b main "$tmp/crg/r" && git -C "$tmp/crg/r" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x && { timeout -s INT 2 "$QF" controller --db "$tmp/crg/c.db" --listen 127.0.0.1:0 --git-repo "$tmp/crg/r" --git-ref main --git-path tenants >/dev/null 2>&1; test -s "$tmp/crg/c.db"; }
args: controller --db "$tmp/crg/c.db" --listen 127.0.0.1:0 --git-repo "$tmp/crg/r" --git-ref gone --git-path tenants --events "$tmp/crg/no/such/folder/e.jsonl"
exit: 2
stderr-has: warning: cannot resolve --git-ref gone
stderr-has: hint: serving the policy stored in the database; sync retries the ref every --sync-interval
stderr-has: --events
after-sh: test -s "$tmp/crg/c.db"
