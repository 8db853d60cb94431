# audit report -o naming the database (here through a link) is refused
# before anything is written: the evidence is never replaced by a report
setup-sh: mkdir -p "$tmp/rod"
setup: audit ingest --db "$tmp/rod/a.db" tests/fixtures/audit/cluster.yaml
setup-sh: ln -sf a.db "$tmp/rod/report.txt" && cp "$tmp/rod/a.db" "$tmp/rod/orig.db"
args: audit report --db "$tmp/rod/a.db" -o "$tmp/rod/report.txt"
exit: 2
stderr-has: /rod/report.txt: error: is also an input (
stderr-has: quotaflow never writes over what it reads [QF002]
after-sh: cmp "$tmp/rod/a.db" "$tmp/rod/orig.db"
