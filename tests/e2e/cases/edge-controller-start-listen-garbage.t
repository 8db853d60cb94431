# controller --listen that is not HOST:PORT is a usage error (exit 2)
# found before the database is created: nothing is left behind
setup-sh: mkdir -p "$tmp/csl"
args: controller --db "$tmp/csl/c.db" --listen garbage
exit: 2
stderr-has: error: --listen 'garbage' is not HOST:PORT: the port is missing or not 0-65535 [QF561]
stderr-has: hint: expected 127.0.0.1:8080, [::1]:8080 or :8080
after-sh: test -z "$(ls -A "$tmp/csl")"
