# Specs, hand-written manifests and invalid manifests in one run: the
# compile check (QF311), the validator (QF209) and a lint rule (QF402).
args: lint tests/fixtures/spec/overcommitted-account.yaml tests/fixtures/lint/QF402-bad.yaml tests/fixtures/validate/bad/cohort-borrowing-without-parent.yaml --format json
exit: 1
stdout-has: "rule": "QF311"
stdout-has: "rule": "QF209"
stdout-has: "rule": "QF402"
stdout-has: "errors": 3
