# A finding in standard input is placed in its text at the column the
# github format counts (UTF-16 code units, an emoji counts two), as for a
# named file: it said column 27 where the file's annotation said col=28
args: lint - --format github
stdin: tests/fixtures/lint/utf16/broken.yaml
exit: 1
stdout-has: ::error title=QF010::standard input, line 4, column 28: YAML syntax error: did not find expected node content (while parsing a flow node at 4:28)
