# - with empty standard input (the command feeding it failed) is said, as
# a warning: it is also how a database is migrated (- </dev/null: the v1
# fixture ends at a newer schema, whichever is current)
setup-sh: cp tests/fixtures/audit/v1.db "$tmp/ais.db"
args: audit ingest --db "$tmp/ais.db" -
exit: 0
stderr-has: <stdin>: warning: standard input is empty: nothing was ingested from it
stderr-has: hint: did the command that feeds it fail?
after-sh: test "$("$QF" audit query --db "$tmp/ais.db" "select user_version from pragma_user_version" | tail -1)" -gt 1
