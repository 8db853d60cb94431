# A link to a file of the same folder (current.yaml -> v2.yaml) is the
# file once, not each of its objects "defined twice" (QF422); findings
# point at the file itself, not the link, and the link is noted.
setup-sh: mkdir -p "$tmp/ls" && printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: f\n' >"$tmp/ls/v2.yaml" && ln -sf v2.yaml "$tmp/ls/current.yaml"
args: lint "$tmp/ls"
exit: 0
stdout-has: /ls/current.yaml: note: skipped: the same file as
stdout-has: /ls/v2.yaml [QF005]
stdout-not: [QF422]
stdout-has: 0 errors, 0 warnings, 1 note
