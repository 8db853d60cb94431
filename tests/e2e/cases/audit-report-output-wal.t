# report -o naming the database's -wal file, while it holds batches a
# killed stream ingest committed and nothing copied into the database
# yet, is refused and the evidence kept (the report replaced the log and
# those batches were gone)
setup-sh: mkfifo "$tmp/arwal.fifo" && { "$QF" audit ingest --db "$tmp/arwal.db" --derive-interval 0 - <"$tmp/arwal.fifo" >/dev/null 2>&1 & p=$!; exec 3>"$tmp/arwal.fifo"; cat tests/fixtures/audit/last-event-admission.jsonl >&3; i=0; until [ "$(sqlite3 "$tmp/arwal.db" 'select count(*) from events' 2>/dev/null)" = 5 ] || [ $i -ge 400 ]; do sleep 0.05; i=$((i+1)); done; kill -9 $p; wait $p; exec 3>&-; test -s "$tmp/arwal.db-wal"; }
args: audit report --db "$tmp/arwal.db" -o "$tmp/arwal.db-wal"
exit: 2
stderr-has: /arwal.db-wal: error: -o: is a SQLite file of the --db database; writing it would destroy evidence [QF002]
after-sh: test "$(sqlite3 "$tmp/arwal.db" 'select count(*) from events')" = 5
