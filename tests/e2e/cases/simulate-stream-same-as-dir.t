# compile --stdout | simulate -f - gives the answer of compile -o DIR;
# simulate -f DIR (simulate-compiled-burst-cap.t): the stream carries the
# Configuration the policy needs as an annotation of the virtual flavour,
# so acme-research stops at its 48-GPU burst.
args: simulate -f - --submit tests/fixtures/simulate/research-jobs.yaml
stdin: tests/golden/tenants/stdout.yaml
exit: 0
stdout-has: research/job-train-06-264b5: admitted at 0ms in ClusterQueue acme-research
stdout-has: insufficient unused quota for quotaflow.dev/gpus in flavor quotaflow-total, 8 more needed
stdout-not: job-train-07-c81ba: admitted
stderr-has: note: no Kueue Configuration among the inputs: simulating with the one the compiled policy needs
stderr-not: QF511
stderr-not: warning
