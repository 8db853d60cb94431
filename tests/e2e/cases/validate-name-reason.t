# A name, label or taint that Kubernetes refuses says why, as the API server
# does (`Invalid value: "A_b": <reason>`): the reason was read before the
# check had set it (argument order), so every QF201/QF203/QF219 said only
# "invalid".
setup-sh: mkdir -p "$tmp/nr" && printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: A_b\n  labels:\n    "-x": "y"\nspec:\n  nodeTaints:\n  - key: k\n    value: "bad value"\n    effect: NoSchedule\n' >"$tmp/nr/rf.yaml"
args: validate "$tmp/nr/rf.yaml"
exit: 1
stderr-has: rf.yaml:4:9: error: Invalid value: "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters
stderr-has: error: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.'
stderr-has: error: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters
stderr-not: : invalid
