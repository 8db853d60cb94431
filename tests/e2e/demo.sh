#!/bin/sh
# make demo's script end to end: every step passes on the bundled examples
# (it exits non-zero when one fails), the pull-request step lints and
# diffs a real git repository, and it leaves the HTML report, the evidence
# database and the compiled manifests in a folder of its own under TMPDIR
# (never in the repository), which this test removes.
QF=${QF:-build/quotaflow}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "demo: FAIL: $*"; exit 1; }
before=$(git status --porcelain 2>/dev/null)
TMPDIR=$tmp sh scripts/demo.sh "$QF" >"$tmp/out" 2>&1 ||
	fail "scripts/demo.sh exited $?: $(tail -5 "$tmp/out")"
for step in 1 2 3 4 5 6; do
	grep -q "^.*$step\. " "$tmp/out" || fail "step $step did not run"
done
grep -q 'quotaflow diff main onboard-speech' "$tmp/out" ||
	fail "the pull request's diff did not run"
grep -q '| speech | added |' "$tmp/out" || fail "the diff does not add tenant speech"
grep -q 'quotaflow lint --repo' "$tmp/out" || fail "lint --git-range did not run"
keep=$(find "$tmp" -maxdepth 1 -name 'quotaflow-demo.*' -type d)
[ -n "$keep" ] || fail "no folder left to look at"
grep -q '<svg class="usage"' "$keep/report.html" || fail "no HTML report in $keep"
[ -s "$keep/evidence.db" ] || fail "no evidence database in $keep"
[ -f "$keep/deploy/kustomization.yaml" ] || fail "no compiled manifests in $keep"
grep -q "$keep/report.html" "$tmp/out" || fail "the report's path is not printed"
[ "$(git status --porcelain 2>/dev/null)" = "$before" ] ||
	fail "the demo changed the repository"
echo "demo: every step ran; report, evidence and manifests left in a folder of their own"
