# A message quoting a file name that is not UTF-8 (the other definition of
# an object defined twice) aborted the SARIF writer (exit 134, nothing on
# stdout); its bytes become U+FFFD, as in the json format.
setup-sh: mkdir -p "$tmp/nu" && cp tests/fixtures/lint/QF402-good.yaml "$tmp/nu/z.yaml" && cp tests/fixtures/lint/QF402-good.yaml "$tmp/nu/b$(printf '\377').yaml"
args: lint "$tmp/nu" --format sarif
exit: 1
stdout-has: "ruleId": "QF422",
stdout-has: is defined twice (hint: the other one is at
stdout-has: "uri": "file://
stdout-has: z.yaml"
