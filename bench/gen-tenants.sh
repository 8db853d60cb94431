#!/bin/sh
# bench/gen-tenants.sh N DIR - write a synthetic pool with N tenants to
# DIR/pool.yaml and DIR/tenants.yaml (deterministic: same N, same bytes).
#
# Shape: 3 flavours (H100 on-demand, H100 spot, H200), one account per
# 1000 tenants (at least 3), tenants committing 1-4 GPUs with a burst of
# twice that, every other tenant allowed on two flavours, every third with a
# second namespace.  Accounts contract their tenants' commitments plus 10%,
# flavours hold the accounts' contracts plus 5%, so the input is valid.
set -eu
n=${1:?usage: gen-tenants.sh N DIR}
dir=${2:?usage: gen-tenants.sh N DIR}
mkdir -p "$dir"
awk -v n="$n" -v dir="$dir" 'BEGIN {
	split("h100-ondemand h100-spot h200", fl, " ")
	na = int(n / 1000); if (na < 3) na = 3
	t = dir "/tenants.yaml"
	printf "" > t
	for (i = 0; i < n; i++) {
		a = i % na; c = 1 + i % 4; p = 1 + int(i / na) % 3
		o = 1 + (int(i / na) + 1) % 3
		com[a, p] += c
		if (i) print "---" > t
		printf "apiVersion: quotaflow.dev/v1alpha1\nkind: Tenant\n" > t
		printf "metadata:\n  name: t%06d\n  labels: {cost-center: \"%d\"}\n", i, 1000 + a > t
		printf "spec:\n  account: acct%03d\n", a > t
		if (i % 3 == 0)
			printf "  namespaces: [t%06d, t%06d-dev]\n", i, i > t
		else
			printf "  namespaces: [t%06d]\n", i > t
		printf "  gpus:\n    committed: %d\n    burst: %d\n", c, 2 * c > t
		printf "    preferredFlavour: %s\n", fl[p] > t
		if (i % 2)
			printf "    flavours: [%s, %s]\n", fl[p], fl[o] > t
		if (i % 5 == 0)
			printf "    lendable: %d\n", c - 1 > t
	}
	close(t)
	q = dir "/pool.yaml"
	printf "apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\nmetadata: {name: bench}\n" > q
	printf "spec:\n  sharing: shared\n  accounts:\n" > q
	for (a = 0; a < na; a++) {
		printf "    - name: acct%03d\n      gpus: {", a > q
		for (f = 1; f <= 3; f++) {
			g = int(com[a, f] * 1.1) + 1
			tot[f] += g
			printf "%s%s: %d", (f > 1 ? ", " : ""), fl[f], g > q
		}
		printf "}\n" > q
	}
	printf "  flavours:\n" > q
	for (f = 1; f <= 3; f++)
		printf "    - {name: %s, gpus: %d, nodeLabels: {pool: %s}}\n", fl[f], int(tot[f] * 1.05) + 1, fl[f] > q
	printf "  priorities: {high: 1000, low: 0}\n  resourcesPerGpu: {cpu: \"12\", memory: 96Gi}\n" > q
	close(q)
}'
