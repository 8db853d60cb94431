#!/bin/sh
# The Quotaflow pre-merge gate that both CI examples run (github-actions.yml,
# gitlab-ci.yml), and that tests/e2e/git.sh runs on a real repository:
#   1. lint the change: every finding in the files it touches, pool-wide
#      capacity rules over the whole tree (SARIF for code scanning, plus
#      workflow annotations on GitHub);
#   2. describe it: a Markdown diff per tenant, flavour and account, to post
#      as the pull-request comment;
#   3. check that the committed Kueue manifests are what the spec compiles to.
# Lint and diff take BASE...HEAD: the change since HEAD parted from BASE,
# so commits BASE gained since (a merge request pipeline runs on the
# branch, not on its merge) are not taken for this change.
# usage: quotaflow-ci.sh BASE HEAD [SPEC_DIR] [DEPLOY_DIR]
# Writes quotaflow.sarif and quotaflow-diff.md into $QF_CI_OUT (default .).
# Exit 0 when lint and the check pass, 1 when one fails, 2 on a usage
# error; the diff only describes (a BASE that does not compile is said in
# the comment and does not fail a change that fixes it).
set -u
QF=${QF:-quotaflow}
[ $# -ge 2 ] || { echo "usage: $0 BASE HEAD [SPEC_DIR] [DEPLOY_DIR]" >&2; exit 2; }
base=$1
head=$2
spec=${3:-tenants}
deploy=${4:-deploy}
out=${QF_CI_OUT:-.}
rc=0

"$QF" lint --git-range "$base...$head" --format sarif "$spec" >"$out/quotaflow.sarif"
lint_rc=$?
[ $lint_rc -le 1 ] || exit 2
[ $lint_rc -eq 0 ] || rc=1
if [ -n "${GITHUB_ACTIONS:-}" ]; then
	"$QF" lint --git-range "$base...$head" --format github "$spec" || :
fi

# the comment says when a side does not compile; the verdict on HEAD is
# lint's and compile --check's, so a change that fixes a broken BASE passes
"$QF" diff "$base...$head" --path "$spec" --format markdown >"$out/quotaflow-diff.md"
[ $? -le 1 ] || exit 2

"$QF" compile "$spec" --check "$deploy" || rc=1
exit $rc
