# Organisation rules from --rules FILE.
args: lint tests/fixtures/lint/QF605-bad.yaml --rules tests/fixtures/lint/policy.yaml
exit: 1
stdout-has: QF605-bad.yaml:25:12: error: tenant "team-ml" bursts to 24 GPUs on a floor of 8, above the policy's ratio of 2.000 [QF605]
