# a pipe among the inputs is not looked into before it is read (its bytes
# would be lost): read in the order given, every event of it stored
setup: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/pipe.jsonl"
setup-sh: mkfifo "$tmp/pipe.fifo" && (cat "$tmp/pipe.jsonl" > "$tmp/pipe.fifo" &)
setup: audit ingest --db "$tmp/pipe.db" "$tmp/pipe.fifo" tests/fixtures/audit/cluster.yaml
args: audit query --db "$tmp/pipe.db" "select id, format, added from inputs order by id"
--- stdout
id	format	added
1	quotaflow	22
2	manifests	9
