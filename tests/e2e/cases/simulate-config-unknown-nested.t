# simulate: a field Kueue does not know inside a block of the Configuration that simulate reads is an error at its line, as Kueue's strict decoding stops the manager: admissionFairSharing.usageHalfLife (so the half-life would silently have been 0), v1beta2's fairSharing.enable (v1beta1 only), a transformation's output (for outputs).
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nadmissionFairSharing: {usageHalfLife: 10s}\nfairSharing: {enable: true}\nresources:\n  transformations:\n  - {input: cpu, output: {}}\n' > "$tmp/cfg-nested.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-nested.yaml"
exit: 1
stderr-has: cfg-nested.yaml:3:39: error: unknown field "usageHalfLife" in admissionFairSharing: Kueue decodes its Configuration strictly and would not start (did you mean usageHalfLifeTime?) [QF510]
stderr-has: cfg-nested.yaml:4:23: error: unknown field "enable" in fairSharing
stderr-has: cfg-nested.yaml:7:26: error: unknown field "output" in resources.transformations[]: Kueue decodes its Configuration strictly and would not start (did you mean outputs?) [QF510]
