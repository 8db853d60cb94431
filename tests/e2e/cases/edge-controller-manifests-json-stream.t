# controller --manifests reads a JSON stream: the objects before the bad
# one load, and the refused fifth one is named at its own position.
setup-sh: rm -f "$tmp/cjs.db"
args: controller --db "$tmp/cjs.db" --listen 127.0.0.1:0 --manifests tests/fixtures/doc/stream/bad-quota.json
exit: 1
stderr-has: tests/fixtures/doc/stream/bad-quota.json:55:1: error: ClusterQueue team-b:
stderr-has: admission webhook "vclusterqueue.kb.io" denied the request: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: Invalid value: "-1": must be greater than or equal to 0
stderr-not: QF010
