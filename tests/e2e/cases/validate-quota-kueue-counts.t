# A quota Kubernetes accepts and Kueue counts as another number: past the
# 64-bit range it is an error (Kueue reads 1e400 GPUs as unlimited,
# Kubernetes caps 8Ei), rounded or with a binary suffix on a count a
# warning (QF227), each at its field; all were accepted without a word
args: validate tests/fixtures/validate/bad/cq-quota-past-range.yaml tests/fixtures/validate/warn/cq-quota-kueue-rounds.yaml
exit: 1
stderr-has: cq-quota-past-range.yaml:17:23: error: nominalQuota "1e400" is past the 64-bit range: Kueue counts nvidia.com/gpu in 64-bit units and reads more than 9223372036854775807 as unlimited [QF208]
stderr-has: cq-quota-past-range.yaml:18:25: error: borrowingLimit "10E" is past the 64-bit range
stderr-has: cq-quota-past-range.yaml:20:23: error: nominalQuota "8Ei" is past the 64-bit range: Kubernetes caps it at 9223372036854775807 [QF208]
stderr-has: cq-quota-kueue-rounds.yaml:17:23: warning: nominalQuota "0.0001" is finer than a millicore: Kueue counts cpu in millicores and rounds it up to 1m [QF227]
stderr-has: cq-quota-kueue-rounds.yaml:19:23: warning: nominalQuota "0.5" is not a whole number: Kueue counts nvidia.com/gpu in whole units and rounds it up to 1 [QF227]
stderr-has: cq-quota-kueue-rounds.yaml:20:23: warning: lendingLimit 1e-400 is too small for a number: YAML reads it as 0, as kubectl does [QF227]
stderr-has: cq-quota-kueue-rounds.yaml:22:23: warning: nominalQuota "1Ki" is 1024 example.com/nic: Ki, Mi, Gi ... are powers of 1024
stdout-has: 2 objects, 1 valid, 1 invalid
