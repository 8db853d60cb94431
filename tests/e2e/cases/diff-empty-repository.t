# a repository without commits: said so, not only "revspec 'HEAD' not found"
# with a hint about branches and shallow clones
setup-sh: rm -rf "$tmp/der" && git init -q "$tmp/der"
args: diff HEAD~1 HEAD --repo "$tmp/der"
exit: 2
stderr-has: unknown revision "HEAD~1"
stderr-has: hint: the repository has no commits yet
stderr-not: shallow clone
