#!/bin/sh
# A store that cannot write (a file size limit: writes fail as on a full
# disk): the controller stops (exit 2) and the request waiting for the
# failed commit is told it was not stored and why (it got a 503 with no
# message, which kubectl prints as "Error from server
# (ServiceUnavailable): " and nothing); after a restart with room every
# acknowledged object is there and the refused one is not
# (tests/controller/lib.sh).
suite=storefull
. "$(dirname "$0")/lib.sh"

# (lib.sh's helpers use $i: the count is $n)
# the limit is on the controller only; SIGXFSZ ignored, so a write past
# it fails with EFBIG instead of killing the process
real=$QF
cat >"$tmp/limited" <<EOF
#!/bin/sh
trap '' XFSZ
ulimit -f 400
exec "$real" "\$@"
EOF
chmod +x "$tmp/limited"
QF=$tmp/limited
start a --db "$tmp/a.db" || exit 1
n=0
out=""
while [ $n -lt 2000 ]; do
	n=$((n + 1))
	out=$(k create namespace "n$n" -o name 2>&1) || break
done
expect_has "told it was not stored, and why" "$out" \
	"Error from server (ServiceUnavailable): not stored: the controller stopped after a store failure (COMMIT: "
wait "$PID"
expect_eq "exit after a store failure" "$?" "2"
expect_has "log says why" "$(cat "$tmp/a.log")" "a.db: error: COMMIT: "
QF=$real
start b --db "$tmp/a.db" || exit 1
expect_eq "acknowledged kept" "$(k get namespaces -o name | grep -c '/n[0-9]')" "$((n - 1))"
expect_has "refused one not stored" "$(k get namespace "n$n" 2>&1)" "NotFound"
stop
expect_eq "stop" "$?" "0"
finish
