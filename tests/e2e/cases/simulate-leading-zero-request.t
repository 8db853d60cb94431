# A Job's request cpu: 010 given to simulate is QF016, as validate says of
# a quota (8 to YAML 1.1, 10 to people): it was simulated as 8 cpus
args: simulate -f examples/simulate/cluster.yaml --submit tests/fixtures/simulate/leading-zero-request.yaml
exit: 1
stderr-has: leading-zero-request.yaml:15:37: error: 010 is read as 8: YAML 1.1, as quotaflow, kubectl, Argo CD and Flux read it (sigs.k8s.io/yaml), takes a leading 0 for octal; YAML 1.2 and people read 10, as Kubernetes reads the quantity "010" [QF016]
stdout-not: team-a/
