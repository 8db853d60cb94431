# --format json: one document with the counts and the diagnostics.
args: validate --format json tests/fixtures/validate/bad/cq-bad-enum.yaml
exit: 1
stdout-has: "invalid": 1,
stdout-has: "rule": "QF105",
stdout-has: "path": "spec.queueingStrategy",
stdout-has: "line": 9,
stdout-not: objects, 
--- stderr
