# QF320: the virtual flavour name is reserved.
setup-sh: mkdir -p "$tmp/s" && sed 's/name: a100$/name: quotaflow-total/; s/a100: 16/quotaflow-total: 16/; s/preferredFlavour: a100/preferredFlavour: quotaflow-total/' tests/fixtures/lint/QF432-good.yaml >"$tmp/s/spec.yaml"
args: lint "$tmp/s/spec.yaml"
exit: 1
stdout-has: [QF320]
