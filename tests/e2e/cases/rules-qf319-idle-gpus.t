# QF319: GPUs in no account stay idle in an isolated pool (a note).
setup-sh: mkdir -p "$tmp/s" && sed 's/      gpus: 16$/      gpus: 20/' tests/fixtures/lint/QF430-good.yaml >"$tmp/s/spec.yaml"
args: lint "$tmp/s/spec.yaml"
exit: 0
stdout-has: note: 4 of the 20 a100 GPUs are in no account and stay idle with sharing: isolated [QF319]
