# a statement that fails while it runs (an integer overflow in the user's
# own arithmetic, sum(count) of absurd counts) is a bad query, exit 1,
# named at <query>: it was "a.db: error: query failed", exit 2, as if the
# database or quotaflow had failed
setup: audit ingest --db "$tmp/aqre.db" tests/fixtures/audit/k8s-events.json
args: audit query --db "$tmp/aqre.db" "select abs(-9223372036854775808) from events"
exit: 1
stderr-has: <query>:1:1: error: the query failed while it ran: integer overflow
stdout-not: abs
