# audit.k8s.io/v1 lines: only complete, successful policy writes count (not
# RequestReceived, a status write, a 422, a get); a repeated auditID once;
# the revision comes from quotaflow.dev/source-commit
setup: audit ingest --db "$tmp/audit-alog.db" tests/fixtures/audit/audit-log.jsonl
args: audit query --db "$tmp/audit-alog.db" "select * from audit_policy_changes"
--- stdout
cluster	at	user	verb	kind	name	revision
default	2026-06-12T09:00:00.000Z	alice	patch	ClusterQueue	team-a	abc1234
default	2026-06-12T09:45:00.250Z	system:serviceaccount:argocd:argocd-application-controller	create	LocalQueue	team-a/main	
