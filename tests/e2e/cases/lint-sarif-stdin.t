# Findings in standard input (kustomize build | quotaflow lint -) were
# results at a file "-" of the repository, which it does not hold: they are
# notifications of the run, with the line and column in their text.
args: lint - --format sarif
stdin: tests/fixtures/lint/QF402-bad.yaml
exit: 1
stdout-not: "uri": "-"
stdout-has: "text": "standard input, line 19, column 17: \"team-a\" names flavour \"a10\"
stdout-has: "results": []
