# A max-exec-time-seconds label that is not a whole number above 0: Kueue's
# Job webhook refuses to create the Job, its reconciler reads it as no
# maximum; simulate warns and runs the Job without one.
args: simulate -f tests/controller/fixtures/setup.yaml --submit tests/fixtures/simulate/max-exec-bad.yaml
exit: 0
stderr-has: max-exec-bad.yaml:11:43: warning: Invalid value: "2m": strconv.Atoi: parsing "2m": invalid syntax; Kueue's Job webhook refuses to create a Job with it, and a Job that has it gets no maximum execution time [QF511]
stdout-has: default/job-capped-e8a95: admitted at 0ms
stdout-has: default/job-next-ea8a3: pending (WaitingForQuota)
