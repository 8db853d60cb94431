# audit export --out an existing folder (even an empty one) is refused and
# left as it was
setup-sh: mkdir -p "$tmp/exe/out" && echo mine >"$tmp/exe/out/notes.txt"
setup: audit ingest --db "$tmp/exe/a.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/exe/a.db" --out "$tmp/exe/out/"
exit: 2
stderr-has: /exe/out: error: already exists; export writes a new directory [QF002]
after-sh: test "$(ls -A "$tmp/exe/out")" = notes.txt && test "$(ls -A "$tmp/exe" | grep -c quotaflow-tmp)" = 0
