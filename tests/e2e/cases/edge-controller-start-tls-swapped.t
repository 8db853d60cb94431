# --tls-cert and --tls-key given the other way round: both named, exit 2
setup-sh: mkdir -p "$tmp/csx" && cd "$tmp/csx" && openssl req -x509 -newkey rsa:2048 -nodes -keyout k.pem -out c.pem -days 1 -subj /CN=a 2>/dev/null
args: controller --db "$tmp/csx/c.db" --listen 127.0.0.1:0 --tls-cert "$tmp/csx/k.pem" --tls-key "$tmp/csx/c.pem"
exit: 2
stderr-has: /csx/k.pem: error: --tls-cert: no PEM certificate in the file [QF561]
stderr-has: /csx/c.pem: error: --tls-key: no usable PEM private key in the file
after-sh: test ! -e "$tmp/csx/c.db"
