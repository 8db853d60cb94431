# report -o naming a link to a missing file: exit 2 before the report is
# built, saying what it is (it was exit 1 after the work, "cannot replace
# a symbolic link with a file"); nothing is created where it points
setup: audit ingest --db "$tmp/arod.db" tests/fixtures/audit/cluster.yaml
setup-sh: rm -f "$tmp/arod.txt" && ln -sf "$tmp/arod-target.txt" "$tmp/arod.txt"
args: audit report --db "$tmp/arod.db" -o "$tmp/arod.txt"
exit: 2
stderr-has: /arod.txt: error: -o: is a symbolic link to a missing file; quotaflow does not create files through links [QF002]
after-sh: test ! -e "$tmp/arod-target.txt" && test -L "$tmp/arod.txt"
