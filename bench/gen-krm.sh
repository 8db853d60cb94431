#!/bin/sh
# bench/gen-krm.sh N FILE [bad] - a kpt/kustomize ResourceList for
# `quotaflow compile --krm`: the Pool and N Tenants of bench/gen-tenants.sh
# as its items (deterministic).  With "bad", every Tenant also carries an
# unknown field, so each yields a diagnostic that --krm attaches to its
# item: the case that used to scan every item per diagnostic.
set -eu
n=${1:?usage: gen-krm.sh N FILE [bad]}
file=${2:?usage: gen-krm.sh N FILE [bad]}
bad=${3:-}
tmp=$file.d
sh "$(dirname "$0")/gen-tenants.sh" "$n" "$tmp"
{
	printf 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n'
	{ cat "$tmp/pool.yaml"; echo ---; cat "$tmp/tenants.yaml"; } |
	awk -v bad="$bad" '
	/^---$/ { first = 1; next }
	NR == 1 || first { print "- " $0; first = 0; next }
	/^kind: / { kind = $2 }
	/^spec:$/ && bad != "" && kind == "Tenant" {
		print "  " $0; print "    bogus: 1"; next
	}
	{ print "  " $0 }'
} >"$file"
rm -rf "$tmp"
