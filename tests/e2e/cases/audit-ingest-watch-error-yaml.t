# `kubectl get events -A -o yaml --watch`: the failed watch's Status is the
# last YAML document (`---` before it, keys sorted); a warning at its
# line, the four events before it stored, nothing rejected, exit 0
setup-sh: { cat tests/fixtures/audit/k8s-events-watch.yaml; printf '%s\n' '---' 'apiVersion: v1' 'code: 410' 'kind: Status' "message: 'too old resource version: 4711 (5120)'" 'metadata: {}' 'reason: Expired' 'status: Failure'; } >"$tmp/aiwey.yaml"
setup-sh: "$QF" audit ingest --db "$tmp/aiwey.db" - <"$tmp/aiwey.yaml" >"$tmp/aiwey.out" 2>"$tmp/aiwey.err"
args: audit query --db "$tmp/aiwey.db" "select (select count(*) from events) as events, (select count(*) from rejected) as rejected"
exit: 0
after-sh: grep -qF '<stdin>:102:1: warning: a watch error, not an event: the watch failed here (410 Expired: too old resource version: 4711 (5120))' "$tmp/aiwey.err"
after-sh: ! grep -q ': error:' "$tmp/aiwey.err"
--- stdout
events	rejected
4	0
