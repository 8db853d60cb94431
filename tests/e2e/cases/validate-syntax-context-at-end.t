# A YAML error at the end of the input names its context inside the file
# too: the error was at 1:5 (just past the last character) and its context
# "while parsing a flow node at 2:1", a line the file does not have
setup-sh: printf 'x: [\n' >"$tmp/ctx-end.yaml"
args: validate "$tmp/ctx-end.yaml"
exit: 1
stderr-has: ctx-end.yaml:1:5: error: YAML syntax error: did not find expected node content (while parsing a flow node at 1:5) [QF010]
stderr-not: at 2:1)
