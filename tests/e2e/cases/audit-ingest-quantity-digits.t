# whole numbers are read without the quantity parser only while their
# milli value is in range: 15 digits are taken, 20 are rejected as the
# parser rejects them (not wrapped into a negative amount)
setup-sh: head -1 tests/fixtures/audit/last-event-admission.jsonl | sed 's/"message":/"usage":{"h100":{"nvidia.com\/gpu":"999999999999999"}},"message":/' >"$tmp/aiqd.jsonl" && sed -n 2p tests/fixtures/audit/last-event-admission.jsonl | sed 's/"message":/"usage":{"h100":{"nvidia.com\/gpu":"99999999999999999999"}},"message":/' >>"$tmp/aiqd.jsonl"
args: audit ingest --db "$tmp/aiqd.db" "$tmp/aiqd.jsonl"
exit: 1
stderr-has: /aiqd.jsonl:2:143: error: usage of flavor h100, nvidia.com/gpu: "99999999999999999999" is not a quantity of 0 or more (4, 500m, 1Gi) [QF703]
stderr-not: aiqd.jsonl:1:1
stdout-has: ingested 2 records: 1 added, 1 rejected
