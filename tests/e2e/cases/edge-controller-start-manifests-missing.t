# controller --manifests naming a missing folder: exit 2 before the
# database is created
setup-sh: mkdir -p "$tmp/csy"
args: controller --db "$tmp/csy/c.db" --listen 127.0.0.1:0 --manifests "$tmp/csy/nope"
exit: 2
stderr-has: /csy/nope: error: --manifests: No such file or directory [QF562]
after-sh: test -z "$(ls -A "$tmp/csy")"
