# a ClusterQueue given twice with two bodies: the later one is used, and
# said (QF511) with where the first is; an identical copy says nothing
setup-sh: "$QF" compile examples/tenants -o "$tmp/simdup/a" >/dev/null 2>&1
setup-sh: mkdir -p "$tmp/simdup/b" && sed 's/nominalQuota: "24"/nominalQuota: 99/' "$tmp/simdup/a/clusterqueue/acme-research.yaml" >"$tmp/simdup/b/acme-research.yaml" && cp "$tmp/simdup/a/clusterqueue/globex-batch.yaml" "$tmp/simdup/b/"
args: simulate -f "$tmp/simdup/a" -f "$tmp/simdup/b" --cycles 1
stderr-has: b/acme-research.yaml:2:1: warning: ClusterQueue "acme-research" is defined twice, differently (first at
stderr-has: a/clusterqueue/acme-research.yaml:2:1); this later definition is used, as kubectl apply of both would leave it [QF511]
stderr-not: globex-batch" is defined twice
