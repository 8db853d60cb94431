# A workflow command for a finding in standard input names no file (it was
# file=-, a file the repository does not hold); its position is in the text.
args: lint - --format github
stdin: tests/fixtures/lint/QF402-bad.yaml
exit: 1
stdout-has: ::error title=QF402::standard input, line 19, column 17: "team-a" names flavour "a10"
stdout-not: file=-
