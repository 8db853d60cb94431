# A --rules maxBurstRatio written 010 was taken as 8 (YAML 1.1 octal)
# where its reader means 10: QF016 at the value, exit 2 as for any rules
# file that does not load.
args: lint examples/tenants --rules tests/fixtures/lint/policy/octal-ratio.yaml
exit: 2
stderr-has: octal-ratio.yaml:3:16: error: 010 is read as 8: YAML 1.1, as quotaflow, kubectl, Argo CD and Flux read it (sigs.k8s.io/yaml), takes a leading 0 for octal; YAML 1.2 and people read 10 [QF016]
stderr-has: hint: write 10 without the leading 0 (or 8 if octal was meant)
