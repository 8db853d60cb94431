# two names that are neither folders nor files, outside a repository: the
# repository's error is not labelled as the first side's ("old: error: .
# is not a git repository") and the hint says why a repository was needed
setup-sh: rm -rf "$tmp/dnr" && mkdir -p "$tmp/dnr"
args: diff old new --repo "$tmp/dnr"
exit: 2
stderr-has: quotaflow: error:
stderr-has: dnr is not a git repository
stderr-has: hint: "old" is no directory or manifest file here, so it names a revision
stderr-not: old: error
