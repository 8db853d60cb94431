# `kubectl get events -A -o yaml --watch | quotaflow audit ingest -`: YAML
# on standard input is read a document at a time (kubectl writes `---`
# between events), each stored as the next begins, and one that does not
# load is rejected alone at its line.  The stream was held whole until it
# ended: nothing was stored while it ran, and one bad event lost them all
setup-sh: sed '39s/^message: /message: : [/' tests/fixtures/audit/k8s-events-watch.yaml >"$tmp/aiyws.yaml"
setup-sh: "$QF" audit ingest --db "$tmp/aiyws.db" - <"$tmp/aiyws.yaml" >"$tmp/aiyws.out" 2>"$tmp/aiyws.err"; test $? = 1
args: audit query --db "$tmp/aiyws.db" "select reason from events order by id"
exit: 0
after-sh: grep -q '<stdin>:39:' "$tmp/aiyws.err" && grep -q 'nothing of this document is stored' "$tmp/aiyws.err" && grep -q 'ingested 4 records: 3 added, 1 rejected' "$tmp/aiyws.out"
--- stdout
reason
Pending
Admitted
EvictedDueToPreempted
