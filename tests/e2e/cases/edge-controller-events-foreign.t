# controller --events naming a file that is not a JSON lines log (a README)
# refuses to start (exit 2) and appends nothing to it
setup-sh: mkdir -p "$tmp/cef" && printf '# notes\n' >"$tmp/cef/README.md"
args: controller --db "$tmp/cef/c.db" --listen 127.0.0.1:0 --events "$tmp/cef/README.md"
exit: 2
stderr-has: /cef/README.md: error: is not a JSON lines log (its first line is not a JSON object); nothing is appended to a file that is not one [QF002]
after-sh: test "$(cat "$tmp/cef/README.md")" = "# notes"
