# A v1beta1 ClusterQueue names its checks in spec.admissionChecks: read
# there (the job reserves quota and waits for the check), with no warning;
# only v1beta2 lacks that field.  The fate says so (it said "pending
# (QuotaReserved) ... (admitted at 0ms before, then evicted)", while the
# JSON said admitted).
args: simulate -f tests/fixtures/simulate/v1beta1-checks.yaml --submit tests/fixtures/simulate/submit.yaml
exit: 0
stdout-has: team-a/first: quota reserved at 0ms in ClusterQueue checked, not admitted until its admission checks are Ready: prov (Pending)
stdout-not: then evicted
--- stderr
