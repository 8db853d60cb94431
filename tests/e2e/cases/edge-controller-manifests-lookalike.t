# controller --manifests with a misspelled ClusterQueue refuses to start
# (exit 1, invalid manifests) instead of serving without the queue
setup-sh: rm -f "$tmp/cml.db"
args: controller --db "$tmp/cml.db" --listen 127.0.0.1:0 --manifests tests/fixtures/validate/bad/kueue-kind-typo.yaml
exit: 1
stderr-has: tests/fixtures/validate/bad/kueue-kind-typo.yaml:3:7: error: Kueue has no kind "ClusterQueu" [QF117]
stderr-not: (null)
