# simulate: a Configuration's admissionFairSharing is checked as Kueue's config validation does, at the field's line: a half-life that is no duration, a sampling interval of 0, a negative resource weight.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nadmissionFairSharing:\n  usageHalfLifeTime: soon\n  usageSamplingInterval: 0s\n  resourceWeights: {cpu: -1}\n' > "$tmp/afs-bad.yaml"
args: simulate -f examples/simulate/fair-queues.yaml -f "$tmp/afs-bad.yaml"
exit: 1
stderr-has: afs-bad.yaml:4:22: error: usageHalfLifeTime must be a duration such as 30s, 10m or 168h [QF510]
stderr-has: afs-bad.yaml:5:26: error: usageSamplingInterval must be greater than 0 [QF510]
stderr-has: afs-bad.yaml:6:26: error: the weight of cpu must be a number greater than or equal to 0 [QF510]
stderr-has: at admissionFairSharing.resourceWeights.cpu
