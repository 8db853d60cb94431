# nominalQuota: 010 in a hand-written ClusterQueue is 8 GPUs to kubectl,
# Argo CD and Flux and 10 to its reader: lint says so at the value.
args: lint tests/fixtures/validate/bad/cq-leading-zero-quota.yaml --format sarif
exit: 1
stdout-has: "ruleId": "QF016",
stdout-has: "startLine": 16,
stdout-has: (hint: write 10 without the leading 0, or \"010\" in quotes (the quantity 10); 8 if octal was meant)
