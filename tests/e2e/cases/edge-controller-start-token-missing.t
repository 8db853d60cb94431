# controller --token-file naming a missing file: exit 2 (it was 1), with
# the file and the option named, and no database created
setup-sh: mkdir -p "$tmp/cst"
args: controller --db "$tmp/cst/c.db" --listen 127.0.0.1:0 --token-file "$tmp/cst/nope"
exit: 2
stderr-has: /cst/nope: error: cannot open file: No such file or directory [QF002]
stderr-has: hint: --token-file wants a readable file holding the bearer token
after-sh: test -z "$(ls -A "$tmp/cst")"
