# `kubectl get events -A -o json >f 2>&1`: the lines kubectl writes to its
# standard error (a deprecated API's "Warning: ...", a klog line of
# client-side throttling) are skipped with a warning (QF705), the List
# under them stored; the file was taken for YAML and rejected whole, "YAML
# syntax error ... at 3:5"
setup-sh: { echo 'Warning: events.k8s.io/v1beta1 Event is deprecated in v1.22+, unavailable in v1.25+; use events.k8s.io/v1 Event'; echo 'I1127 12:00:00.123456   41234 request.go:697] Waited for 1.04s due to client-side throttling, not priority and fairness'; cat tests/fixtures/audit/k8s-events.json; } >"$tmp/aiks.json"
args: audit ingest --db "$tmp/aiks.db" "$tmp/aiks.json"
exit: 0
stderr-has: aiks.json:1:1: warning: skipped a line kubectl writes to its standard error (sent here by 2>&1) [QF705]
stderr-has: aiks.json:2:1: warning: skipped a line kubectl writes to its standard error
stdout-has: ingested 11 records: 11 added, 0 rejected
