# compile --stdout | simulate -f - admits the typical GPU Job as -o DIR
# does (simulate-typical-job-plain-pool.t): with no virtual flavour, the
# Configuration (excludeResourcePrefixes, T10) rides on the first
# ResourceFlavor.
setup-sh: "$QF" compile tests/fixtures/compile/plain-pool --stdout >"$tmp/plain.yaml"
args: simulate -f "$tmp/plain.yaml" --submit tests/fixtures/simulate/typical-gpu-job.yaml
exit: 0
stdout-has: vision/job-train-1e76f: admitted at 0ms in ClusterQueue vision
