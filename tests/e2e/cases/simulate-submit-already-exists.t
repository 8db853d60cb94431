# A --submit workload is created at time 0: one whose Workload the -f
# snapshot already has is refused, as the API server refuses a name taken
# (it was a second workload of that name, admitted beside the first)
args: simulate -f tests/fixtures/simulate/dump-jobs-and-workloads.yaml --submit tests/fixtures/simulate/dump-jobs-submit-train.yaml
exit: 1
stderr-has: dump-jobs-submit-train.yaml:3:1: error: Workload team-a/job-train-af596 of Job train is already defined at tests/fixtures/simulate/dump-jobs-and-workloads.yaml:85:3: a --submit workload is created at time 0, and the API server refuses to create an object whose name is taken (AlreadyExists) [QF520]
stdout-not: team-a
