# a quotaflow event whose usage or borrowed map holds a negative or
# unreadable quantity is rejected, naming the cell: the derivation took
# "-6" as it was and skipped "six", so such events changed the views
# (team-a's borrowing vanished) with exit 0
setup-sh: head -1 tests/fixtures/audit/last-event-admission.jsonl | sed 's/"message":/"usage":{"h100":{"nvidia.com\/gpu":"-6"}},"message":/' >"$tmp/aibq.jsonl" && sed -n 2p tests/fixtures/audit/last-event-admission.jsonl | sed 's/"message":/"borrowed":{"h100":{"nvidia.com\/gpu":"six"}},"message":/' >>"$tmp/aibq.jsonl"
args: audit ingest --db "$tmp/aibq.db" "$tmp/aibq.jsonl"
exit: 1
stderr-has: /aibq.jsonl:1:148: error: usage of flavor h100, nvidia.com/gpu: "-6" is not a quantity of 0 or more (4, 500m, 1Gi) [QF703]
stderr-has: /aibq.jsonl:2:146: error: borrowed of flavor h100, nvidia.com/gpu: "six" is not a quantity of 0 or more
stdout-has: ingested 2 records: 0 added, 2 rejected
