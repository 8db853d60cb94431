# The text format counts characters, in its columns and in the positions
# its messages quote (lint-github-utf16-quoted-positions.t is the other side)
args: lint tests/fixtures/lint/utf16/broken.yaml tests/fixtures/lint/utf16/dupkey.yaml
exit: 1
stdout-has: broken.yaml:4:27: error: YAML syntax error: did not find expected node content (while parsing a flow node at 4:27) [QF010]
stdout-has: dupkey.yaml:4:29: error: duplicate key "name" (first defined at 4:20) [QF011]
