# controller --listen localhost:8080: the host must be a numeric address,
# and the message says so (names are not looked up), exit 2
args: controller --db "$tmp/csln.db" --listen localhost:8080
exit: 2
stderr-has: error: --listen 'localhost:8080' is not HOST:PORT: HOST must be a numeric address (names such as localhost are not looked up) [QF561]
stderr-has: hint: expected 127.0.0.1:8080
after-sh: test ! -e "$tmp/csln.db"
