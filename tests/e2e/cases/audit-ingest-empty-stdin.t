# - with empty standard input (the command feeding it failed) is an error
args: audit ingest --db "$tmp/ais.db" -
exit: 1
stderr-has: <stdin>: error: standard input is empty: nothing to ingest
stderr-has: hint: did the command that feeds it fail?
