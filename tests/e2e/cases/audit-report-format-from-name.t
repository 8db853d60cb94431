# report -o report.html without --format writes HTML (it wrote text into
# a .html file); --format still wins over the name
setup: audit ingest --db "$tmp/arf.db" tests/fixtures/audit/cluster.yaml
setup: audit report --db "$tmp/arf.db" --format text -o "$tmp/arf-text.html"
args: audit report --db "$tmp/arf.db" -o "$tmp/arf.html"
exit: 0
after-sh: head -1 "$tmp/arf.html" | grep -q '^<!DOCTYPE html>' && head -1 "$tmp/arf-text.html" | grep -q '^Window: '
