# `kubectl get events -A -o yaml` when there are none: an empty List is
# evidence of nothing and not an error, as in JSON; the YAML one was
# rejected as "no object found: not a recognised evidence format", exit 1
setup-sh: printf 'apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n' >"$tmp/aieyl.yaml"
args: audit ingest --db "$tmp/aieyl.db" "$tmp/aieyl.yaml"
exit: 0
stdout-has: ingested 1 records: 0 added, 0 rejected
stderr-not: error
