# report -o naming a file the user may not write (chmod a-w, kept on
# purpose) is refused before the report is built, and the file is left
# as it was: the atomic rename needs only the folder, so it replaced
# the file where > and cp stop.  Root may write anything, so as root the
# check runs as nobody (setpriv), on copies of the binary and database.
setup: audit ingest --db "$tmp/arwp.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arwp.db" -o "$tmp/arwp-ok.txt"
exit: 0
after-sh: chmod 755 "$tmp" && mkdir "$tmp/arwp" && cp "$QF" "$tmp/arwp/qf" && cp "$tmp/arwp.db" "$tmp/arwp/a.db" && echo mine >"$tmp/arwp/r.txt" && chmod 444 "$tmp/arwp/r.txt" && as= && if [ "$(id -u)" = 0 ]; then chown -R 65534:65534 "$tmp/arwp" && as="setpriv --reuid=65534 --regid=65534 --clear-groups"; fi && { $as "$tmp/arwp/qf" audit report --db "$tmp/arwp/a.db" -o "$tmp/arwp/r.txt" 2>"$tmp/arwp.err"; test $? = 2; } && cat "$tmp/arwp.err" && grep -q "/arwp/r.txt: error: is write-protected (Permission denied); quotaflow does not replace a file it may not write \[QF002\]" "$tmp/arwp.err" && test "$(cat "$tmp/arwp/r.txt")" = mine
