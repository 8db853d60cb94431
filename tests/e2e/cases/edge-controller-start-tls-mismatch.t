# controller --tls-cert and --tls-key that do not belong together: exit 2
# naming the key and the certificate (it was exit 1, "address in use, or a
# bad TLS certificate or key", after creating the database)
setup-sh: mkdir -p "$tmp/csm" && cd "$tmp/csm" && openssl req -x509 -newkey rsa:2048 -nodes -keyout k1.pem -out c1.pem -days 1 -subj /CN=a 2>/dev/null && openssl req -x509 -newkey rsa:2048 -nodes -keyout k2.pem -out c2.pem -days 1 -subj /CN=b 2>/dev/null
args: controller --db "$tmp/csm/c.db" --listen 127.0.0.1:0 --tls-cert "$tmp/csm/c1.pem" --tls-key "$tmp/csm/k2.pem"
exit: 2
stderr-has: /csm/k2.pem: error: --tls-key does not belong to the certificate in --tls-cert
stderr-not: address in use
after-sh: test ! -e "$tmp/csm/c.db"
