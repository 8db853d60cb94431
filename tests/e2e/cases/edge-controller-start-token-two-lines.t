# a token file of two lines (or with spaces, or binary) cannot go into an
# Authorization header as it is: exit 2 at the first bad byte, instead of
# a controller that answers 401 to every token
setup-sh: mkdir -p "$tmp/csw" && printf 'abc\ndef\n' >"$tmp/csw/token"
args: controller --db "$tmp/csw/c.db" --listen 127.0.0.1:0 --token-file "$tmp/csw/token"
exit: 2
stderr-has: /csw/token:1:4: error: --token-file: byte 0x0a cannot be part of a bearer token [QF562]
stderr-has: hint: the file holds the token alone, on one line
after-sh: test ! -e "$tmp/csw/c.db"
