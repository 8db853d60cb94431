# A string written without quotes that YAML 1.1 reads as a boolean (y, on)
# or a number (1.10) says to quote it, and the number is shown as written
# (1.1, not 1.1000000000000001); kubectl refuses these too.
setup-sh: mkdir -p "$tmp/uq" && printf 'apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata:\n  name: y\n  labels:\n    v: 1.10\nspec:\n  nodeLabels:\n    gpu: on\n' >"$tmp/uq/rf.yaml"
args: validate "$tmp/uq/rf.yaml"
exit: 1
stderr-has: rf.yaml:4:9: error: wrong type: got boolean true [QF104]
stderr-has: hint: expected a string; YAML 1.1 reads y, n, yes, no, on and off as booleans: quote the value
stderr-has: rf.yaml:6:8: error: wrong type: got number 1.1 [QF104]
stderr-has: hint: expected a string; quote the value (1.10 without quotes is the number 1.1)
stderr-has: rf.yaml:9:10: error: wrong type: got boolean true [QF104]
stderr-not: 1.1000000000000001
