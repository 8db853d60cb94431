# a listed file replaced by a folder is named as such (it was "missing
# or unreadable")
setup: audit ingest --db "$tmp/avff.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/avff.db" --out "$tmp/avff"
setup-sh: rm "$tmp/avff/report.html" && mkdir "$tmp/avff/report.html"
args: audit verify "$tmp/avff"
exit: 1
stderr-has: /avff/report.html: error: tampered: a folder where a file is listed
