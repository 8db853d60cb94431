# controller --listen on an address this machine does not have: exit 2 at
# start, naming --listen and what to give, and no database created
setup-sh: mkdir -p "$tmp/csn"
args: controller --db "$tmp/csn/c.db" --listen 192.0.2.1:8080
exit: 2
stderr-has: error: --listen 192.0.2.1:8080: cannot bind: Cannot assign requested address [QF561]
stderr-has: hint: give an address of this machine
after-sh: test -z "$(ls -A "$tmp/csn")"
