# A v1beta1 ClusterQueue names its checks in spec.admissionChecks: read
# there (the job reserves quota and waits for the check), with no warning;
# only v1beta2 lacks that field.
args: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml --submit tests/fixtures/simulate/submit.yaml
exit: 0
stdout-has: team-a/first: pending (QuotaReserved)
--- stderr
