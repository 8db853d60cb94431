# 5,000 Tenants under a Pool with 48 resources per GPU: the companion
# resource check (QF324) asked, for each tenant, each resource of each
# other tenant and who covers it first, quadratic in tenants and in
# resources: over a minute here (10,000 ordinary tenants: 1.5 s of a 2 s
# compile, twice per diff).  Now each resource's first coverer is found
# once: well under a second.
setup-sh: awk -v T=5000 -v R=48 'BEGIN { printf "apiVersion: quotaflow.dev/v1alpha1\nkind: Pool\nmetadata: {name: p1}\nspec:\n  flavours: [{name: a100, gpus: %d}]\n  accounts: [{name: acme, gpus: {a100: %d}}]\n  resourcesPerGpu: {", T, T; for (j = 0; j < R; j++) printf "%sexample.com/r%d: \"1\"", j ? ", " : "", j; printf "}\n"; for (i = 0; i < T; i++) printf "---\napiVersion: quotaflow.dev/v1alpha1\nkind: Tenant\nmetadata: {name: t%d}\nspec:\n  account: acme\n  namespaces: [ns%d]\n  gpus: {committed: 1, burst: 1, preferredFlavour: a100}\n", i, i }' >"$tmp/many-resources.yaml"
args: validate "$tmp/many-resources.yaml"
exit: 0
stdout-has: 5001 objects, 5001 valid, 0 invalid, 0 skipped
stderr-not: QF324
