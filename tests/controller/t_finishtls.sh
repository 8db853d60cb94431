#!/bin/sh
# quotaflow finish against a controller serving HTTPS (--tls-cert):
# https:// with --certificate-authority (the controller's certificate),
# with the token it asks for; a certificate it cannot trust, one for
# another host, and http:// to an https port are refused with what to do
# (exit 2); nothing is finished by a refused call (tests/controller/lib.sh).
suite=finishtls
. "$(dirname "$0")/lib.sh"

make_cert
printf 's3cret\n' >"$tmp/token"
start a --db "$tmp/a.db" --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" \
	--token-file "$tmp/token" || exit 1
S="--server https://127.0.0.1:$PORT --certificate-authority $tmp/cert.pem --token s3cret"
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
fin() { "$QF" finish default/job1 --token-file "$tmp/token" "$@" 2>&1; echo "exit $?"; }
U=https://127.0.0.1:$PORT
# a certificate that is not trusted: the system's CAs do not know it
out=$(fin --server "$U")
expect_has "untrusted" "$out" "cannot reach the controller at $U: the TLS certificate is not trusted: self-signed certificate (give the controller's certificate or its CA with --certificate-authority FILE)"
expect_has "untrusted exit" "$out" "exit 2"
# a certificate of another host
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/k2.pem" \
	-out "$tmp/c2.pem" -days 1 -subj /CN=other -addext subjectAltName=DNS:other >/dev/null 2>&1
out=$(fin --server "$U" --certificate-authority "$tmp/c2.pem")
expect_has "other CA" "$out" "the TLS certificate is not trusted"
out=$(fin --server "https://localhost:$PORT" --certificate-authority "$tmp/cert.pem")
expect_has "host mismatch" "$out" "hostname mismatch"
# plain HTTP to the TLS port
out=$(fin --server "http://127.0.0.1:$PORT")
expect_has "http to https" "$out" "does the controller serve https, with --tls-cert?"
expect_has "http to https exit" "$out" "exit 2"
expect_eq "not finished" "$(k get job job1 -o jsonpath='{.status.succeeded}')" ""
# the right CA: done
out=$(fin --server "$U" --certificate-authority "$tmp/cert.pem")
expect_eq "finished" "$out" "job default/job1 complete
exit 0"
expect_eq "succeeded" "$(k get job job1 -o jsonpath='{.status.succeeded}')" "3"
# the token is still needed over TLS
out=$("$QF" finish default/job1 --server "$U" --certificate-authority "$tmp/cert.pem" 2>&1)
expect_has "no token" "$out" "the controller wants a token: --token-file FILE"
stop || bad "stop"
finish
