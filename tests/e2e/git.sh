#!/bin/sh
# End-to-end tests of `lint --git-range` and `diff` on real git
# repositories: a repository with several commits is built in a temp dir
# (a normal clone, a bare clone and a shallow clone of it), then the
# commands, and the CI gate of examples/ci/quotaflow-ci.sh, run on it.
# Prints `git: N passed, N failed`.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# check NAME WANT_EXIT CMD...: run CMD in the repo, stdout/err into $tmp/out
check() {
	name=$1 want=$2
	shift 2
	(cd "$tmp/repo" && "$@") >"$tmp/out" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
		return 0
	fi
	fail=$((fail + 1))
	echo "FAIL git/$name: exit $got, want $want"
	sed 's/^/  /' "$tmp/out" | head -20
	return 1
}

# has NAME TEXT: the last output holds TEXT (fixed string)
has() {
	if grep -qF -- "$2" "$tmp/out"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL git/$1: output lacks '$2'"
		sed 's/^/  /' "$tmp/out" | head -20
	fi
}

hasnt() {
	if grep -qF -- "$2" "$tmp/out"; then
		fail=$((fail + 1))
		echo "FAIL git/$1: output has '$2'"
	else
		pass=$((pass + 1))
	fi
}

g() { git -C "$tmp/repo" -c user.email=ci@example.com -c user.name=ci "$@"; }
# gw DIR ARGS...: git in another worktree of the repository
gw() {
	dir=$1
	shift
	git -C "$dir" -c user.email=ci@example.com -c user.name=ci "$@"
}

# commit 1: the bundled examples and their compiled output
mkdir -p "$tmp/repo/tenants" "$tmp/repo/kueue"
g init -q -b main
cp "$root"/examples/tenants/*.yaml "$tmp/repo/tenants/"
cp "$root/tests/fixtures/lint/QF402-good.yaml" "$tmp/repo/kueue/queues.yaml"
(cd "$tmp/repo" && "$QF" compile tenants -o deploy >/dev/null) || exit 2
g add -A && g commit -qm "pool and tenants" && g tag v1

# commit 2 (v2): globex-vision commits 24 -> 32 and bursts 40 -> 48,
# the deploy directory recompiled with it
sed -i 's/    committed: 24/    committed: 32/; 0,/burst: 40/s//burst: 48/' \
	"$tmp/repo/tenants/globex.yaml"
(cd "$tmp/repo" && "$QF" compile tenants -o deploy >/dev/null) || exit 2
g add -A && g commit -qm "globex-vision: more GPUs" && g tag v2

# commit 3: 32 -> 44 overcommits globex on h100-ondemand (40): QF311 is in
# pool.yaml, which does not change
sed -i 's/    committed: 32/    committed: 44/' "$tmp/repo/tenants/globex.yaml"
g commit -qam "globex-vision: even more"

# commit 4: a hand-written queue names a flavour that does not exist
cp "$root/tests/fixtures/lint/QF402-bad.yaml" "$tmp/repo/kueue/queues.yaml"
g commit -qam "queues: a10"

check lint-range-clean 0 "$QF" lint --git-range v1..v1
check lint-range-poolwide 1 "$QF" lint --git-range v2..HEAD~1
has lint-range-poolwide "tenants/pool.yaml:43:"
has lint-range-poolwide "[QF311]"
check lint-range-changed-only 1 "$QF" lint --git-range HEAD~1..HEAD kueue
has lint-range-changed-only "kueue/queues.yaml:19:17: error"
hasnt lint-range-changed-only "[QF433]"
check lint-range-sarif 1 "$QF" lint --git-range HEAD~1..HEAD --format sarif
has lint-range-sarif '"uri": "kueue/queues.yaml"'
check lint-range-bad 2 "$QF" lint --git-range nope..HEAD
has lint-range-bad "unknown revision \"nope\""
has lint-range-bad "[QF021]"
mkdir -p "$tmp/not-a-repo"
check lint-not-a-repo 2 "$QF" lint --git-range HEAD~1..HEAD --repo "$tmp/not-a-repo"
has lint-not-a-repo "[QF020]"
check lint-range-malformed 2 "$QF" lint --git-range HEAD

# the object store alone: a bare clone, and a shallow one
git clone -q --bare "$tmp/repo" "$tmp/bare.git"
check lint-bare 1 "$QF" lint --git-range HEAD~1..HEAD --repo "$tmp/bare.git"
has lint-bare "kueue/queues.yaml:19:17"
git clone -q --depth 2 "file://$tmp/repo" "$tmp/shallow"
check lint-shallow 1 "$QF" lint --git-range HEAD~1..HEAD --repo "$tmp/shallow"
check lint-shallow-too-deep 2 "$QF" lint --git-range v1..HEAD --repo "$tmp/shallow"

check diff-text 0 "$QF" diff v1 v2 --path tenants
has diff-text "quotaflow diff v1 -> v2: tenants 0 added, 0 removed, 1 changed"
has diff-text "~ globex-vision: committed 24 -> 32, burst 40 -> 48"
has diff-text "globex/h100-ondemand: committed 24 -> 32, headroom 16 -> 8"
has diff-text "~ ClusterQueue globex-vision"
# --path as a shell completes it (./tenants, tenants//): the same folder
# (./tenants was "no such file or folder in revision")
check diff-dot-path 0 "$QF" diff v1 v2 --path ./tenants//
has diff-dot-path "~ globex-vision: committed 24 -> 32, burst 40 -> 48"
check lint-range-dot-path 0 "$QF" lint --git-range v1..v2 ./tenants
check diff-markdown 0 "$QF" diff main~3 main~2 --path tenants --format markdown
has diff-markdown "| Tenants | 0 | 0 | 1 |"
has diff-markdown "| globex-vision | changed | globex | 24 → 32 | 40 → 48 |"
check diff-json 0 "$QF" diff v1 v2 --path tenants --format json
has diff-json '"change": "changed"'
check diff-bare 0 "$QF" diff v1 v2 --path tenants --repo "$tmp/bare.git"
check diff-invalid-side 1 "$QF" diff v2 HEAD --path tenants
has diff-invalid-side "[QF311]"
# the failing side's errors name the revision (REV:path:line:col), stdout
# says why there is no diff, the sides' warnings are not repeated
has diff-invalid-side "HEAD:tenants/pool.yaml:"
has diff-invalid-side "quotaflow diff v2 -> HEAD: HEAD does not compile (1 error, on stderr), so there is nothing to compare"
hasnt diff-invalid-side "warning:"
check diff-invalid-markdown 1 sh -c "'$QF' diff v2 HEAD --path tenants --format markdown 2>/dev/null"
has diff-invalid-markdown "**\`HEAD\` does not compile** (1 error), so there is nothing to compare:"
has diff-invalid-markdown "- \`HEAD:tenants/pool.yaml:"
check diff-invalid-json 1 sh -c "'$QF' diff v2 HEAD --path tenants --format json 2>/dev/null"
has diff-invalid-json '"head": false'
has diff-invalid-json '"rule": "QF311"'
# a --path one revision does not hold: exit 2 naming both
check diff-missing-path 2 "$QF" diff v1 v2 --path nothere
has diff-missing-path "v1:nothere: error: no such file or folder in revision v1 [QF023]"
check lint-range-missing-path 2 "$QF" lint --git-range v1..v2 nothere
has lint-range-missing-path "v2:nothere: error: no such file or folder in revision v2 [QF023]"
git -C "$tmp/repo" worktree add -q "$tmp/v2" v2
check diff-directory 0 "$QF" diff v1 "$tmp/v2" --path tenants
has diff-directory "~ globex-vision"
check diff-same 0 "$QF" diff v1 v1 --path tenants
has diff-same "tenants 0 added, 0 removed, 0 changed; Kueue objects 0 added, 0 removed, 0 changed"
check diff-unknown 2 "$QF" diff v1 nope --path tenants
has diff-unknown "unknown revision \"nope\""
check diff-usage 2 "$QF" diff v1
# a revision is a commit: a tag of a tree (lightweight or annotated), or a
# tree id, was read as that tree; a tag of a commit is followed, also an
# annotated one and a tag of that tag
g tag tree-tag 'v1^{tree}'
g tag -a -m tree tree-note 'v1^{tree}'
g tag -a -m v1 v1-note v1
g tag -a -m again v1-note-note v1-note 2>/dev/null
check diff-tag-of-tree 2 "$QF" diff tree-tag v2 --path tenants
has diff-tag-of-tree 'revision "tree-tag" is a tag of a tree, not a commit [QF021]'
hasnt diff-tag-of-tree "added"
check diff-annotated-tag-of-tree 2 "$QF" diff v1 tree-note --path tenants
has diff-annotated-tag-of-tree 'revision "tree-note" is a tag of a tree, not a commit'
check diff-tree-id 2 "$QF" diff 'v1^{tree}' v2 --path tenants
has diff-tree-id 'revision "v1^{tree}" is a tree, not a commit'
check lint-range-tag-of-tree 2 "$QF" lint --git-range tree-tag..v2
has lint-range-tag-of-tree 'revision "tree-tag" is a tag of a tree, not a commit'
check diff-annotated-tag 0 "$QF" diff v1-note-note v2 --path tenants
has diff-annotated-tag "~ globex-vision"
g tag -d tree-tag tree-note v1-note v1-note-note >/dev/null

# a side that is both a folder here and a branch is ambiguous, as git
# says: exit 2 with both spellings (the folder was read, with --path
# tenants an empty spec, so every tenant read as added)
g branch tenants v1
check diff-side-ambiguous 2 "$QF" diff tenants v1 --path tenants
has diff-side-ambiguous '"tenants" is both a folder here and a revision of the repository'
has diff-side-ambiguous 'write ./tenants for the folder, or tenants^{commit} for the revision'
hasnt diff-side-ambiguous "added"
check diff-side-revision-spelled 0 "$QF" diff 'tenants^{commit}' v1 --path tenants
has diff-side-revision-spelled "tenants 0 added, 0 removed, 0 changed"
g branch -D -q tenants

# a file that does not load at a revision fails that side, as on disk
# (it was left out: its tenants read as removed, exit 0)
git -C "$tmp/repo" worktree add -q -b broken "$tmp/broken-wt" v2
printf -- '---\nkind: [\n' >>"$tmp/broken-wt/tenants/initech.yaml"
gw "$tmp/broken-wt" commit -qam "initech: a YAML error"
check diff-unloadable-file 1 "$QF" diff v2 broken --path tenants
has diff-unloadable-file "broken:tenants/initech.yaml:"
has diff-unloadable-file "[QF010]"
has diff-unloadable-file "broken does not compile (1 error, on stderr)"
hasnt diff-unloadable-file "- initech-ml"

# committed symbolic links: one to a file of the repository is read as
# that file (as on disk); one out of the repository, to nothing or in a
# loop is QF024 and never followed (each was read as YAML: "/etc/passwd"
# made "document 1 is a string")
git -C "$tmp/repo" worktree add -q -b links "$tmp/links-wt" v2
mkdir -p "$tmp/links-wt/shared"
gw "$tmp/links-wt" mv tenants/initech.yaml shared/initech.yaml
ln -s ../shared/initech.yaml "$tmp/links-wt/tenants/initech.yaml"
gw "$tmp/links-wt" add -A
gw "$tmp/links-wt" commit -qm "initech: shared"
check diff-link-inside 0 "$QF" diff v2 links --path tenants
has diff-link-inside "tenants 0 added, 0 removed, 0 changed"
ln -s /etc/passwd "$tmp/links-wt/tenants/passwd.yaml"
ln -s ../../../.. "$tmp/links-wt/tenants/up.yaml"
ln -s loop.yaml "$tmp/links-wt/tenants/loop.yaml"
gw "$tmp/links-wt" add -A
gw "$tmp/links-wt" commit -qm "links out"
check diff-link-outside 1 "$QF" diff v2 links --path tenants
has diff-link-outside 'links:tenants/passwd.yaml: error: a symbolic link to "/etc/passwd", outside the repository, which is not followed [QF024]'
has diff-link-outside 'links:tenants/up.yaml: error: a symbolic link to "../../../..", outside the repository'
has diff-link-outside 'links:tenants/loop.yaml: error: a chain of more than 40 symbolic links'
hasnt diff-link-outside "root:"
check lint-link-outside 1 "$QF" lint --git-range v2..links tenants
has lint-link-outside "tenants/passwd.yaml: error: a symbolic link"

# SARIF columns read from a revision count UTF-16 code units too (an
# emoji counts two): 61 in code points, 63 in UTF-16
git -C "$tmp/repo" worktree add -q -b emoji "$tmp/emoji-wt" v2
cp "$root/tests/fixtures/lint/utf16/flavour.yaml" "$tmp/emoji-wt/kueue/"
gw "$tmp/emoji-wt" add -A
gw "$tmp/emoji-wt" commit -qm "a flavour with an emoji"
check lint-range-sarif-utf16 1 "$QF" lint --git-range v2..emoji --format sarif
has lint-range-sarif-utf16 '"startColumn": 63'

# a change breaks files it does not touch: removing a ResourceFlavor fails
# the unchanged ClusterQueue that names it (QF402 was dropped with the
# unchanged file, so the gate passed); what BASE had already is not said
git -C "$tmp/repo" worktree add -q -b split "$tmp/split-wt" v2
awk 'NR > 1 && /^---$/ { exit } NR > 1' "$root/tests/fixtures/lint/QF402-good.yaml" \
	>"$tmp/split-wt/kueue/flavours.yaml"
printf -- '---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: h100\n' \
	>>"$tmp/split-wt/kueue/flavours.yaml"
awk 'f; /^---$/ { f = 1 }' "$root/tests/fixtures/lint/QF402-good.yaml" >"$tmp/split-wt/kueue/queues.yaml"
gw "$tmp/split-wt" add -A
gw "$tmp/split-wt" commit -qm "flavours apart"
gw "$tmp/split-wt" tag split-base
sed -i '1,/^---$/d' "$tmp/split-wt/kueue/flavours.yaml"
gw "$tmp/split-wt" commit -qam "drop a100"
gw "$tmp/split-wt" tag split-dropped
echo "# reviewed" >>"$tmp/split-wt/tenants/acme.yaml"
gw "$tmp/split-wt" commit -qam "acme: a comment"
check lint-range-breaks-elsewhere 1 "$QF" lint --git-range split-base..split-dropped
has lint-range-breaks-elsewhere 'kueue/queues.yaml:10:17: error: "team-a" names flavour "a100", but no ResourceFlavor has that name'
check lint-range-broken-before 0 "$QF" lint --git-range split-dropped..split
hasnt lint-range-broken-before "kueue/queues.yaml"

# a --path only one side holds: the change creates (the first pull
# request) or removes the spec, compared with an empty side (it was exit 2,
# "no such file or folder in revision")
git -C "$tmp/repo" worktree add -q -b no-spec "$tmp/nospec-wt" v2
gw "$tmp/nospec-wt" rm -rq tenants
gw "$tmp/nospec-wt" commit -qm "no spec yet"
check diff-path-created 0 "$QF" diff no-spec v2 --path tenants
has diff-path-created "tenants 8 added, 0 removed, 0 changed; Kueue objects 32 added, 0 removed, 0 changed"
has diff-path-created "+ globex-vision: account globex, committed 32, burst 48"
check diff-path-removed 0 "$QF" diff v2 no-spec --path tenants --format json
has diff-path-removed '"removed": 8'
check diff-path-neither 2 "$QF" diff no-spec no-spec --path tenants
has diff-path-neither "no-spec:tenants: error: no such file or folder in revision no-spec [QF023]"

# BASE...HEAD: from where the branch parted (git's merge base), what a
# pull request changes; main's own later commits (an overcommit, a bad
# queue) are not the branch's.  BASE..HEAD is BASE HEAD.  (Both were "give
# exactly BASE and HEAD", and lint refused BASE...HEAD.)
git -C "$tmp/repo" worktree add -q -b topic "$tmp/topic-wt" v2
sed -i 's/    committed: 12/    committed: 10/; s/    lendable: 12/    lendable: 10/' \
	"$tmp/topic-wt/tenants/initech.yaml"
gw "$tmp/topic-wt" commit -qam "initech-ml: 10"
check diff-three-dots 0 "$QF" diff main...topic --path tenants
has diff-three-dots "quotaflow diff $(git -C "$tmp/repo" rev-parse --short=12 v2) -> topic: tenants 0 added, 0 removed, 1 changed"
has diff-three-dots "~ initech-ml: committed 12 -> 10"
hasnt diff-three-dots "globex-vision"
check diff-two-dots 1 "$QF" diff main..topic --path tenants
has diff-two-dots "main does not compile"
# main changed kueue/queues.yaml after topic parted: not topic's change
check lint-three-dots 0 "$QF" lint --git-range main...topic
hasnt lint-three-dots "kueue/queues.yaml"
check lint-two-dots 0 "$QF" lint --git-range main..topic
has lint-two-dots "kueue/queues.yaml:13:9: warning"
check diff-three-dots-unknown 2 "$QF" diff main...nope

# paths from a folder inside the work tree start there, as git's do: in
# tenants/, --path . is tenants (it was the whole repository, deploy/'s
# compiled output included: QF307) and lint's PATH . too; a path out of
# the repository is QF023, exit 2 (/etc was read as etc)
check diff-path-from-subfolder 0 sh -c "cd tenants && '$QF' diff v1 v2 --path ."
has diff-path-from-subfolder "~ globex-vision: committed 24 -> 32, burst 40 -> 48"
check diff-path-up 0 sh -c "cd kueue && '$QF' diff v1 v2 --path ../tenants/"
has diff-path-up "~ globex-vision: committed 24 -> 32, burst 40 -> 48"
check diff-path-absolute 0 "$QF" diff v1 v2 --path "$tmp/repo/tenants"
has diff-path-absolute "~ globex-vision: committed 24 -> 32, burst 40 -> 48"
check diff-path-outside 2 "$QF" diff v1 v2 --path /etc
has diff-path-outside "/etc: error: is outside the repository"
check lint-range-from-subfolder 1 sh -c "cd tenants && '$QF' lint --git-range HEAD~1..HEAD ."
has lint-range-from-subfolder "tenants/pool.yaml:43:"
hasnt lint-range-from-subfolder "kueue/queues.yaml"
# SARIF and workflow commands name files from the repository's top, where
# code scanning and annotations look for them, from a subfolder too (they
# were relative to the working folder: 'pool.yaml', a file GitHub does not
# have)
(cd "$tmp/repo/tenants" && "$QF" lint . --format sarif) >"$tmp/out" 2>&1
has lint-sarif-from-subfolder '"uri": "tenants/pool.yaml"'
hasnt lint-sarif-from-subfolder '"uri": "pool.yaml"'
(cd "$tmp/repo/tenants" && "$QF" lint ./pool.yaml --format github) >"$tmp/out" 2>&1
has lint-github-from-subfolder "file=tenants/pool.yaml,line="
# ... and when the files are named through a link to the repository's
# folder ($PWD against getcwd's real path, macOS's /tmp), by its real path
# (they were file:// URIs out of the repository, which code scanning drops)
ln -s "$tmp/repo" "$tmp/repolink"
(cd "$tmp/repo" && "$QF" lint "$tmp/repolink/tenants" --format sarif) >"$tmp/out" 2>&1
has lint-sarif-through-link '"uri": "tenants/pool.yaml"'
hasnt lint-sarif-through-link 'file://'
check diff-path-bare-top 0 "$QF" diff v1 v2 --path tenants --repo "$tmp/bare.git"

# a spec folder that is a git submodule: its files are in another
# repository, which is not read; --path naming it is QF023, exit 2, and a
# walk of the whole tree notes it (lint --git-range reported a clean
# "0 errors" having read nothing, diff "no Pool document found")
git init -q "$tmp/subspec"
cp "$root"/examples/tenants/*.yaml "$tmp/subspec/"
gw "$tmp/subspec" add -A
gw "$tmp/subspec" commit -qm spec
git init -q -b main "$tmp/super"
echo super >"$tmp/super/README"
gw "$tmp/super" add -A
gw "$tmp/super" commit -qm readme
gw "$tmp/super" -c protocol.file.allow=always submodule add -q "$tmp/subspec" tenants
gw "$tmp/super" commit -qm "tenants as a submodule"
check lint-submodule 2 "$QF" lint --git-range HEAD~1..HEAD tenants --repo "$tmp/super"
has lint-submodule "HEAD:tenants: error: is a git submodule in revision HEAD"
check lint-submodule-tree 0 "$QF" lint --git-range HEAD~1..HEAD --repo "$tmp/super"
has lint-submodule-tree "tenants: note: skipped: a git submodule"
check diff-submodule 2 "$QF" diff HEAD~1 HEAD --path tenants --repo "$tmp/super"
has diff-submodule "[QF023]"

# a side that is the checked-out commit is read as committed: uncommitted
# edits under --path get a note (QF025) saying they are not compared, and
# how to compare them (the diff said "0 changed" without a word)
git -C "$tmp/repo" worktree add -q --detach "$tmp/dirty-wt" v2
sed -i 's/    committed: 32/    committed: 30/' "$tmp/dirty-wt/tenants/globex.yaml"
check diff-uncommitted 0 sh -c "cd '$tmp/dirty-wt' && '$QF' diff v1 HEAD --path tenants"
has diff-uncommitted "tenants/globex.yaml: note: differs from HEAD in the work tree (uncommitted) and is not compared: HEAD is read as committed [QF025]"
has diff-uncommitted "~ globex-vision: committed 24 -> 32"
check diff-uncommitted-dot 0 sh -c "cd '$tmp/dirty-wt' && '$QF' diff v1 . --path tenants"
has diff-uncommitted-dot "~ globex-vision: committed 24 -> 30"
hasnt diff-uncommitted-dot "[QF025]"
# neither side the checked-out commit: nothing to say
check diff-committed-clean 0 sh -c "cd '$tmp/dirty-wt' && '$QF' diff v1 HEAD~1 --path tenants"
hasnt diff-committed-clean "[QF025]"

# a blob missing from the object store (a damaged clone): QF022, exit 2
git clone -q --no-hardlinks "$tmp/repo" "$tmp/broken"
blob=$(git -C "$tmp/broken" rev-parse HEAD:kueue/queues.yaml)
rm -f "$tmp/broken/.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"
check lint-missing-blob 2 "$QF" lint --git-range HEAD~1..HEAD --repo "$tmp/broken"
has lint-missing-blob "[QF022]"

# the CI gate, as the workflow and the GitLab job call it
check ci-gate-pass 0 sh -c "cd '$tmp/v2' && QF='$QF' QF_CI_OUT='$tmp' sh '$root/examples/ci/quotaflow-ci.sh' v1 v2 tenants deploy"
check ci-gate-pass-diff 0 grep -qF "| globex-vision | changed |" "$tmp/quotaflow-diff.md"
check ci-gate-fails 1 env QF="$QF" QF_CI_OUT="$tmp" sh "$root/examples/ci/quotaflow-ci.sh" v2 HEAD tenants deploy
check ci-gate-fails-comment 0 grep -qF "does not compile" "$tmp/quotaflow-diff.md"
check ci-gate-sarif-uri 0 grep -qF '"uri": "tenants/pool.yaml"' "$tmp/quotaflow.sarif"
check ci-gate-sarif 0 grep -qF '"ruleId": "QF311"' "$tmp/quotaflow.sarif"
# a change that fixes a BASE that does not compile passes the gate: the
# comment says BASE does not compile, HEAD is judged by lint and --check
# (the diff's exit 1 for the broken BASE failed the fix)
git -C "$tmp/repo" worktree add -q -b fix "$tmp/fix-wt" main
sed -i 's/    committed: 44/    committed: 32/' "$tmp/fix-wt/tenants/globex.yaml"
gw "$tmp/fix-wt" commit -qam "globex-vision: back to 32"
check ci-gate-fixes-base 0 sh -c "cd '$tmp/fix-wt' && QF='$QF' QF_CI_OUT='$tmp' sh '$root/examples/ci/quotaflow-ci.sh' main fix tenants deploy"
check ci-gate-fixes-base-comment 0 grep -qF "does not compile" "$tmp/quotaflow-diff.md"

echo "git: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
