# A range going back past the first commit (HEAD~9 of a history of two)
# says the history has no such ancestor; it said libgit2's "parent 0 does
# not exist", of a parent nobody named
setup-sh: rm -rf "$tmp/anc" && mkdir -p "$tmp/anc/tenants" && cp examples/tenants/*.yaml "$tmp/anc/tenants/" && cd "$tmp/anc" && git init -q && git add . && git -c user.email=a@b -c user.name=a commit -qm one && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m two
args: lint --repo "$tmp/anc" --git-range HEAD~9..HEAD tenants
exit: 2
stderr-has: error: unknown revision "HEAD~9" in
stderr-has: the history has no such ancestor (it goes back past a first commit, or names a merge parent the commit does not have) [QF021]
stderr-not: parent 0
