# an audit log written as audit.k8s.io/v1beta1 (clusters before 1.24
# could still log it; the same fields as v1) is read as v1 is: it was
# rejected as "not evidence: Event evidence has apiVersion v1 or
# events.k8s.io/v1", which named the wrong kind of Event
setup-sh: sed 's#audit.k8s.io/v1"#audit.k8s.io/v1beta1"#' tests/fixtures/audit/audit-log.jsonl >"$tmp/aiav.jsonl" && grep -q v1beta1 "$tmp/aiav.jsonl"
setup: audit ingest --db "$tmp/aiav1.db" tests/fixtures/audit/audit-log.jsonl
setup: audit ingest --db "$tmp/aiav.db" "$tmp/aiav.jsonl"
args: audit query --db "$tmp/aiav.db" "SELECT count(*) > 0, count(*) = (SELECT count(*) FROM audit_policy_changes) FROM audit_policy_changes"
exit: 0
after-sh: test "$("$QF" audit query --db "$tmp/aiav.db" 'SELECT * FROM audit_policy_changes')" = "$("$QF" audit query --db "$tmp/aiav1.db" 'SELECT * FROM audit_policy_changes')"
--- stdout
count(*) > 0	count(*) = (SELECT count(*) FROM audit_policy_changes)
1	1
