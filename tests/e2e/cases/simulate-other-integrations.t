# A Pod or JobSet with a queue name (Kueue manages them through its other
# integrations) is ignored with a warning that says its quota goes
# uncounted and what to give instead; it said only "ignoring object of
# kind Pod"
args: simulate -f examples/simulate/cluster.yaml --submit tests/fixtures/simulate/other-integrations.yaml
exit: 0
stderr-has: tests/fixtures/simulate/other-integrations.yaml:5:1: warning: ignoring Pod notebook: it has a queue name (main), but simulate reads only batch/v1 Jobs and Workloads, so the quota Kueue would give it is not counted [QF511]
stderr-has: tests/fixtures/simulate/other-integrations.yaml:16:1: warning: ignoring JobSet trainer: it has a queue name (main)
stderr-has:   hint: give the Workload Kueue made for it instead (kubectl get workloads -n NAMESPACE -o yaml)
