# A Kustomization that would change what kustomize builds is not applied
# by simulate, and simulate says so with the way out.
args: simulate -f tests/fixtures/simulate/kustomize examples/simulate/cluster.yaml --cycles 1
exit: 0
stderr-has: tests/fixtures/simulate/kustomize/kustomization.yaml:3:1: warning: simulate does not run kustomize: "patches" of this Kustomization is not applied [QF511]
stderr-has: kubectl kustomize DIR | quotaflow simulate -f -
