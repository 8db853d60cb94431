# one document of a multi-document YAML with a version Kueue never served
# (kueue.x-k8s.io/v1beta9): rejected at the field to fix, as validate
# does, and the other documents stored (it was stored as if it were
# v1beta2: exit 0, no word)
args: audit ingest --db "$tmp/aima.db" tests/fixtures/audit/misnamed/apiversion.yaml
exit: 1
stderr-has: misnamed/apiversion.yaml:8:13: error: Kueue serves no version "v1beta9" [QF117]
stderr-has: hint: Kueue serves v1beta2 (and v1beta1 before it)
stdout-has: ingested 9 records: 8 added, 1 rejected
