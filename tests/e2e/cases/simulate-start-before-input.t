# --start before the latest time the -f objects hold (Workloads created and pending at 09:02 on 2026-06-12) would run the clock backwards: exit 1, saying what is expected
args: simulate -f tests/fixtures/audit/waiting/k8s-workloads.yaml -f tests/fixtures/audit/waiting/k8s-queues.yaml --start 2026-01-01T00:00:00Z
exit: 1
stderr-has: error: --start 2026-01-01T00:00:00Z is before 2026-06-12T09:02:00Z, the latest time the -f objects hold: expected a start at or after it
