# a name read from evidence that holds terminal control sequences (a
# crafted dump: retitle the terminal, turn it red) is printed escaped by
# the text report and by query; it reached the reader's terminal as it was
setup: audit ingest --db "$tmp/arte.db" tests/fixtures/audit/misnamed/terminal-escape.json
args: audit report --db "$tmp/arte.db"
exit: 0
stdout-has: evil\x1b]0;pwned\x07\x1b[31mred
after-sh: "$QF" audit query --db "$tmp/arte.db" 'select cluster_queue from quotas' | grep -qF 'evil\x1b]0;pwned\x07\x1b[31mred'
