# JSON lines saved with a UTF-8 byte order mark (a Windows editor,
# PowerShell's > redirection) are read as JSON, as kubectl output with
# one is; the mark made every line a rejected record (QF702, exit 1)
setup-sh: printf '\357\273\277' >"$tmp/aib.jsonl" && cat tests/fixtures/audit/last-event-admission.jsonl >>"$tmp/aib.jsonl"
setup-sh: printf '\357\273\277' >"$tmp/aib.json" && cat tests/fixtures/audit/k8s-events.json >>"$tmp/aib.json"
args: audit ingest --db "$tmp/aib.db" "$tmp/aib.jsonl" "$tmp/aib.json"
exit: 0
stdout-has: 0 rejected
stderr-not: QF70
