#!/bin/sh
# make demo: the whole story on the bundled examples, in order: validate the
# specs, compile GPU budgets into Kueue policy, check it against Kueue's
# schemas, gate a pull request (lint, the semantic diff, compile --check),
# ask the admission engine what Kueue will do with that policy when jobs
# arrive, then rebuild the audit evidence.  Works in a temporary folder;
# what is left to look at (the HTML report, the evidence database, the
# compiled manifests) goes to a new folder under $TMPDIR, never the repo.
set -u
QF=${1:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
SHARED=${QF_SHARED_DIR:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
skipped=""
bold() { printf '\n\033[1m%s\033[0m\n' "$*"; }
skip() {
	printf 'skipped: %s\n' "$*"
	skipped="$skipped
  - $*"
}
run() { printf '$ %s\n' "$*" | sed "s|$QF|quotaflow|"; "$@"; }

bold "1. Validate the tenant specs and Kueue manifests in the repository"
run "$QF" validate examples/tenants examples/simulate || exit 1

bold "2. Compile the GPU budgets (examples/tenants) into Kueue manifests"
run "$QF" compile examples/tenants -o "$tmp/deploy" || exit 1
(cd "$tmp/deploy" && find . -name '*.yaml' | sort | sed 's|^\./|    |')
echo "One tenant's ClusterQueue (committed = nominalQuota, burst - committed = borrowingLimit):"
sed 's/^/    /' "$tmp/deploy/clusterqueue/applied-ai.yaml"

bold "3. Check the compiled policy with Kueue's own rules"
run "$QF" validate "$tmp/deploy" || exit 1
if [ -d "$SHARED/kueue-crds" ]; then
	run "$QF" validate --crds "$SHARED/kueue-crds" "$tmp/deploy" || exit 1
else
	skip "validation against Kueue's own CRDs: no $SHARED/kueue-crds (set QF_SHARED_DIR to a folder holding kueue-crds/, Kueue's config/components/crd/bases); the built-in schemas above still ran"
fi
if command -v kubectl >/dev/null 2>&1; then
	run kubectl kustomize "$tmp/deploy" >/dev/null || exit 1
	echo "    kubectl kustomize builds the output directory"
else
	skip "kubectl kustomize over the output: kubectl is not installed"
fi

bold "4. Gate a pull request: lint, the semantic diff, is the output up to date?"
# a Flux-style repository: specs in tenants/, rendered manifests in deploy/
mkdir -p "$tmp/repo" && cp -r examples/tenants "$tmp/repo/tenants"
(cd "$tmp/repo" && "$QF" compile tenants -o deploy 2>/dev/null >/dev/null)
(cd "$tmp/repo" && run "$QF" compile tenants --check deploy 2>/dev/null)
speech() {
	cat >"$tmp/repo/tenants/speech.yaml" <<'YAML'
apiVersion: quotaflow.dev/v1alpha1
kind: Tenant
metadata: {name: speech}
spec:
  account: initech
  namespaces: [speech]
  gpus: {committed: 4, burst: 8, preferredFlavour: h100-spot}
  preemption: guaranteed
YAML
}
g() { git -C "$tmp/repo" -c user.name=demo -c user.email=demo@example.com \
	-c init.defaultBranch=main -c commit.gpgsign=false "$@" >/dev/null; }
if command -v git >/dev/null 2>&1; then
	g init -q && g add -A && g commit -q -m "lon1 pool, three accounts"
	g checkout -q -b onboard-speech
	speech
	g add -A && g commit -q -m "onboard tenant speech"
	echo "(a pull request onboards tenant 'speech' but forgets to re-render deploy/)"
	echo "The CI job lints what the pull request changed, as GitHub annotations:"
	run "$QF" lint --repo "$tmp/repo" --git-range main...onboard-speech \
		--format github --fail-on error || exit 1
	echo "and comments what the change means, per tenant and account:"
	run "$QF" diff main onboard-speech --repo "$tmp/repo" --path tenants \
		--format markdown
else
	skip "the pull request in a throw-away git repository (lint --git-range, diff): git is not installed"
	speech
	echo "(a pull request onboards tenant 'speech' but forgets to re-render deploy/)"
fi
(cd "$tmp/repo" && run "$QF" compile tenants --check deploy 2>&1 |
	grep -v '^  \|warning:\|note:')
echo "    => exit 1: the merge is blocked until deploy/ is regenerated"

bold "5. What will Kueue do? Simulate the compiled policy with a day's jobs"
# --start dates the simulated day, so the audit report below shows it
run "$QF" simulate -f "$tmp/deploy" -f examples/demo/namespaces.yaml \
	--trace examples/demo/trace.jsonl --start 2026-11-27T09:00:00Z \
	--events "$tmp/events.jsonl" --summary "$tmp/summary.json" \
	2>/dev/null || exit 1
echo "Timeline (UTC on 2026-11-27, event, workload, ClusterQueue):"
sed -n 's/^{"time_ms":\([0-9]*\),"type":"[A-Za-z]*","reason":"\([A-Za-z]*\)","workload":"\([^"]*\)","clusterQueue":"\([^"]*\)".*/\1 \2 \3 \4/p' \
	"$tmp/events.jsonl" | grep -v ' Admitted ' |
	awk '{ t = int($1 / 1000) % 86400
		printf "    %02d:%02d:%02d  %-28s %-38s %s\n", int(t / 3600), int(t % 3600 / 60), t % 60, $2, $3, $4 }'
echo "Who was preempted, and why:"
grep '"reason":"Preempted"' "$tmp/events.jsonl" |
	sed 's/.*"workload":"\([^"]*\)".*"message":"\([^;]*\);.*/    \1: \2/'
echo "GPUs used over time per ClusterQueue (--summary usage_pct, 100 = its nominal quota):"
tr -d ' \n' <"$tmp/summary.json" | grep -o '"[a-z0-9-]*":{"usage_pct":{"nvidia.com/gpu":[0-9.]*' |
	sed 's/"\([^"]*\)":{"usage_pct":{"nvidia.com\/gpu":\([0-9.]*\)/\1 \2/' |
	awk '{ printf "    %-16s %6.1f %%\n", $1, $2 }'

bold "6. The evidence: who waited, who borrowed whose GPUs, who was preempted"
# the events the simulation wrote, the compiled policy for the quotas and
# the Pool for the prices
run "$QF" audit ingest --db "$tmp/evidence.db" --cluster lon1 \
	"$tmp/events.jsonl" "$tmp/deploy" examples/tenants/pool.yaml \
	2>/dev/null || exit 1
run "$QF" audit report --db "$tmp/evidence.db" --format markdown || exit 1
run "$QF" audit query --db "$tmp/evidence.db" \
	"SELECT workload, preemptor, reason, at FROM audit_preemptions" || exit 1
run "$QF" audit export --db "$tmp/evidence.db" --out "$tmp/bundle" || exit 1
run "$QF" audit verify "$tmp/bundle" || exit 1
# the database itself: its events' chain, and its derived tables derived again
run "$QF" audit verify --db "$tmp/evidence.db" || exit 1
echo "    => a tamper-evident bundle (hash chain, manifest.json, in-toto Statement) to sign and archive"
# what the demo leaves behind to look at: outside the repository, kept
keep=$(mktemp -d "${TMPDIR:-/tmp}/quotaflow-demo.XXXXXX") || exit 1
cp "$tmp/evidence.db" "$keep/evidence.db" && cp -r "$tmp/deploy" "$keep/deploy" ||
	exit 1
run "$QF" audit report --db "$keep/evidence.db" -o "$keep/report.html" ||
	exit 1

bold "What to open and try next"
qf=${QF#"$(pwd)/"} # build/quotaflow, as typed from the repository
cat <<EOF
    $keep/report.html        the audit report: open it in a browser (one file, no network)
    $keep/deploy/            the Kueue manifests compiled from examples/tenants
    $keep/evidence.db        the evidence, SQLite: ask it anything, read-only:
        $qf audit query --db $keep/evidence.db "SELECT * FROM audit_waits"
    $qf simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml
        what Kueue does with a batch of jobs on a cluster snapshot
    $qf controller --help
        the same engine behind a Kubernetes API that kubectl talks to (docs/controller.md)
    docs/tutorial.md         your own pool, from an empty repository to a gated pull request
    docs/gitops/argocd.md, docs/gitops/flux.md, examples/ci/
                             the compiled policy in Argo CD or Flux, and the pull-request gate in CI
EOF
if [ -n "$skipped" ]; then
	bold "Skipped checks"
	printf '%s\n' "$skipped" | sed '/^$/d'
else
	bold "Every check ran (none skipped)"
fi
exit 0
