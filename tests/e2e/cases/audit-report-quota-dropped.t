# The report's committed line follows the quota in force (D3), as the derivation does: qa has 4 h100 and 4 a100 (8 GPUs) until its revision of 50s lists h100 only, so its committed line steps from 8 (y 10, the top) to 4 (y 65) at 50s (x 180: the window is 0-100s over x 28-332), and stays there; no burst line (no borrowingLimit: unlimited)
setup: audit ingest --db "$tmp/audit-rqd.db" tests/fixtures/audit/fidelity/cluster.yaml tests/fixtures/audit/fidelity/drop-a100.yaml tests/fixtures/audit/fidelity/events.jsonl
args: audit report --db "$tmp/audit-rqd.db" --format html -o "$tmp/audit-rqd.html"
exit: 0
after-sh: sed 's/<svg/\n<svg/g' "$tmp/audit-rqd.html" | grep '<title>GPU usage of qa<' | grep -o '<polyline[^>]*>' >"$tmp/audit-rqd.lines"
after-sh: grep -qxF '<polyline fill="none" stroke="#2a9d4b" stroke-dasharray="6 3" points="28.0,22.0 180.0,22.0 180.0,71.0 210.4,71.0 210.4,71.0 271.2,71.0 271.2,71.0 332.0,71.0 "/>' "$tmp/audit-rqd.lines"
after-sh: test "$(grep -c d83b3b "$tmp/audit-rqd.lines")" = 0
