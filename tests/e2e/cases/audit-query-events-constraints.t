# audit query's `events` picks the chunks a constraint on id or time_ms
# can match (qf_chunked_events, evview.c) and decodes only those: every
# such query gives the rows of the stored view (main.events) exactly,
# across the 6 chunks of 3000 events (the bounds at a chunk's edge) and the rows of Kubernetes events:
# equality, ranges both ways, open bounds, a bound that is a real (no
# chunk skipped for it: SQLite checks the rows), and a time window
setup-sh: sh bench/gen-events.sh 3000 "$tmp/aqec" >/dev/null
setup: audit ingest --db "$tmp/aqec.db" "$tmp/aqec/cluster.yaml" "$tmp/aqec/events.jsonl" tests/fixtures/audit/k8s-events.json
args: audit query --db "$tmp/aqec.db" "WITH q(name, a, b) AS (VALUES ('eq', (SELECT group_concat(id || reason || quote(chain)) FROM events WHERE id = 1700), (SELECT group_concat(id || reason || quote(chain)) FROM main.events WHERE id = 1700)), ('range', (SELECT count(*) || ':' || sum(time_ms) FROM events WHERE id BETWEEN 600 AND 2100), (SELECT count(*) || ':' || sum(time_ms) FROM main.events WHERE id BETWEEN 600 AND 2100)), ('open', (SELECT count(*) FROM events WHERE id > 2990), (SELECT count(*) FROM main.events WHERE id > 2990)), ('gt', (SELECT count(*) FROM events WHERE id > 511), (SELECT count(*) FROM main.events WHERE id > 511)), ('ge', (SELECT count(*) FROM events WHERE id >= 512), (SELECT count(*) FROM main.events WHERE id >= 512)), ('lt', (SELECT count(*) FROM events WHERE id < 514), (SELECT count(*) FROM main.events WHERE id < 514)), ('le', (SELECT count(*) FROM events WHERE id <= 513), (SELECT count(*) FROM main.events WHERE id <= 513)), ('edge', (SELECT count(*) FROM events WHERE time_ms BETWEEN 48669 AND 48712), (SELECT count(*) FROM main.events WHERE time_ms BETWEEN 48669 AND 48712)), ('real', (SELECT count(*) FROM events WHERE id >= 1699.5 AND id < 1702.5), (SELECT count(*) FROM main.events WHERE id >= 1699.5 AND id < 1702.5)), ('time', (SELECT count(*) || ':' || min(id) FROM events WHERE time_ms >= 100000 AND time_ms < 400000), (SELECT count(*) || ':' || min(id) FROM main.events WHERE time_ms >= 100000 AND time_ms < 400000)), ('k8s', (SELECT count(*) FROM events WHERE id > 3000), (SELECT count(*) FROM main.events WHERE id > 3000)), ('chunks', (SELECT count(*) FROM main.event_chunks), 6)) SELECT name, a = b AS same, length(a) > 0 AND a NOT IN (0, '0:') AS some FROM q"
exit: 0
--- stdout
name	same	some
eq	1	1
range	1	1
open	1	1
gt	1	1
ge	1	1
lt	1	1
le	1	1
edge	1	1
real	1	1
time	1	1
k8s	1	1
chunks	1	1
