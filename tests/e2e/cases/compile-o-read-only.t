# -o into a folder the user may not write: the error names the file and
# says where the temporary file could not go ("cannot create a temporary
# file in: Permission denied" named no folder).  Root may write anything,
# so as root the run is made as nobody (setpriv) on a copy of the binary.
args: compile examples/tenants --stdout -q
exit: 0
after-sh: chmod 755 "$tmp" && rm -rf "$tmp/oro" && mkdir -p "$tmp/oro/out" && cp "$QF" "$tmp/oro/qf" && cp -r examples/tenants "$tmp/oro/t" && chmod 555 "$tmp/oro/out" && as= && if [ "$(id -u)" = 0 ]; then chown -R 65534:65534 "$tmp/oro" && as="setpriv --reuid=65534 --regid=65534 --clear-groups"; fi && { $as "$tmp/oro/qf" compile "$tmp/oro/t" -o "$tmp/oro/out" -q 2>"$tmp/oro.err"; test $? = 2; } && cat "$tmp/oro.err" && grep -q "oro/out/.quotaflow-manifest: error: cannot create a temporary file beside it: Permission denied \[QF002\]" "$tmp/oro.err" && test -z "$(ls -A "$tmp/oro/out")"
