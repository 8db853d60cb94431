# The report's quota lines follow the quota in force (D3), as the derivation does: qa (4 h100 + 4 a100, no borrowingLimit: no burst line) is deleted at 50s, so from then on its committed line is 0 (y 120) and so is its burst (it can take nothing), from x 180 (50s of a 0-100s window over x 28-332); before, committed is 8, the top (y 10)
setup: audit ingest --db "$tmp/audit-rqx.db" tests/fixtures/audit/fidelity/cluster.yaml tests/fixtures/audit/fidelity/delete-qa.jsonl tests/fixtures/audit/fidelity/events.jsonl
args: audit report --db "$tmp/audit-rqx.db" --format html -o "$tmp/audit-rqx.html"
exit: 0
after-sh: sed 's/<svg/\n<svg/g' "$tmp/audit-rqx.html" | grep '<title>GPU usage of qa<' | grep -o '<polyline[^>]*>' >"$tmp/audit-rqx.lines"
after-sh: grep -qxF '<polyline fill="none" stroke="#2a9d4b" stroke-dasharray="6 3" points="28.0,22.0 180.0,22.0 180.0,120.0 210.4,120.0 210.4,120.0 271.2,120.0 271.2,120.0 332.0,120.0 "/>' "$tmp/audit-rqx.lines"
after-sh: grep -qxF '<polyline fill="none" stroke="#d83b3b" stroke-dasharray="2 3" points="180.0,120.0 210.4,120.0 210.4,120.0 271.2,120.0 271.2,120.0 332.0,120.0 "/>' "$tmp/audit-rqx.lines"
