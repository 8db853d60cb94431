# a temp file a killed `audit report -o` left (hidden, named with a process
# that is gone) is removed by the next write in that folder
setup-sh: rm -rf "$tmp/rkl" && mkdir -p "$tmp/rkl" && d=$(sh -c 'echo $$') && echo half >"$tmp/rkl/.quotaflow-tmp-$d-0000abcd-0" && echo mine >"$tmp/rkl/notes.txt"
setup: audit ingest --db "$tmp/rkl.db" tests/fixtures/audit/cluster.yaml
args: audit report --db "$tmp/rkl.db" -o "$tmp/rkl/report.txt"
exit: 0
after-sh: test "$(LC_ALL=C ls -A "$tmp/rkl" | tr '\n' ' ')" = "notes.txt report.txt "
