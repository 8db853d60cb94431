# A position quoted in a message (a YAML syntax error's "while parsing ...
# at", a duplicate key's "first defined at") and the position of a finding
# in standard input count UTF-16 code units in the github and sarif
# formats, as their columns do: they counted characters, so one annotation
# said col=28 and "at 4:27"; text keeps characters
args: lint tests/fixtures/lint/utf16 --format github
exit: 1
stdout-has: file=tests/fixtures/lint/utf16/broken.yaml,line=4,col=28,title=QF010::YAML syntax error: did not find expected node content (while parsing a flow node at 4:28)
stdout-has: file=tests/fixtures/lint/utf16/dupkey.yaml,line=4,col=30,title=QF011::duplicate key "name" (first defined at 4:21)
stdout-not: at 4:27)
stdout-not: at 4:20)
