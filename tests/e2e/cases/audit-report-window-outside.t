# a window the evidence does not reach (a typo in the year) gets a warning
# with the span of the evidence; given on one side only it stays where it
# was asked for (--until 1960 was shown as a window at 1970)
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/arw.jsonl"
setup: audit ingest --db "$tmp/arw.db" "$tmp/arw.jsonl" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/arw.db" --until 1960-01-01 --format json
exit: 0
stdout-has: "from": "1960-01-01T00:00:00.000Z"
stdout-has: "to": "1960-01-01T00:00:00.000Z"
stderr-has: /arw.db: warning: the window 1960-01-01T00:00:00.000Z to 1960-01-01T00:00:00.000Z is outside the evidence, which runs from 1970-01-01T00:00:00.000Z to 1970-01-01T00:02:00.000Z
