# a problem of a whole directory side is named by its path, DIR/SUBDIR, not
# in git's REV:path spelling ("a:.: error"), which names no file there is
setup-sh: rm -rf "$tmp/dle" && mkdir -p "$tmp/dle/a" && cp -r examples/tenants "$tmp/dle/b"
args: diff "$tmp/dle/a" "$tmp/dle/b" --path .
exit: 1
stderr-has: /dle/a/.: error: no *.yaml, *.yml or *.json files found [QF307]
stderr-not: /dle/a:.
