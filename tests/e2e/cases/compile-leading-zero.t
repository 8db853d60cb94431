# committed: 012 was compiled as 10 GPUs without a word (YAML 1.1 octal, as
# kubectl reads it); people and YAML 1.2 read 12.  Now an error saying what
# to write, and nothing is compiled.
args: compile tests/fixtures/spec/leading-zero.yaml --stdout
exit: 1
stderr-has: leading-zero.yaml:22:16: error: 012 is read as 10: YAML 1.1, as quotaflow, kubectl, Argo CD and Flux read it (sigs.k8s.io/yaml), takes a leading 0 for octal; YAML 1.2 and people read 12 [QF016]
stderr-has: hint: write 12 without the leading 0 (or 10 if octal was meant)
stdout-not: kind: ClusterQueue
