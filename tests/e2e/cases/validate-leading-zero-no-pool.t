# A Tenant validated without its Pool gets compile's QF016 for committed:
# 012 (10 to YAML 1.1, 12 to people); it was "1 valid" (schema only)
args: validate tests/fixtures/spec/leading-zero-no-pool.yaml
exit: 1
stderr-has: leading-zero-no-pool.yaml:14:16: error: 012 is read as 10: YAML 1.1, as quotaflow, kubectl, Argo CD and Flux read it (sigs.k8s.io/yaml), takes a leading 0 for octal; YAML 1.2 and people read 12 [QF016]
stdout-has: 1 object, 0 valid, 1 invalid, 0 skipped
# a quantity's 010 is said once, by the schema (as a quantity)
stderr-has: leading-zero-no-pool.yaml:18:26: error: 010 is read as 8: YAML 1.1, as quotaflow, kubectl, Argo CD and Flux read it (sigs.k8s.io/yaml), takes a leading 0 for octal; YAML 1.2 and people read 10, as Kubernetes reads the quantity "010" [QF016]
stderr-not: people read 10 [QF016]
