# a duration without a unit is ambiguous (--breach-after 60: seconds? it
# was 60 ms): refused with both readings
args: audit ingest --db "$tmp/edu.db" --breach-after 60 tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: error: --breach-after 60 has no unit
stderr-has: hint: write 60s for seconds or 60ms for milliseconds
after-sh: test ! -e "$tmp/edu.db"
