# what a killed export left (its hidden folder, named with a process that
# is gone) is removed by the next export in that folder; a live process's
# folder and anything not ours stay
setup-sh: rm -rf "$tmp/ekl" && mkdir -p "$tmp/ekl" && d=$(sh -c 'echo $$') && mkdir -p "$tmp/ekl/.quotaflow-tmp-$d-bundle-0/views" && mkdir "$tmp/ekl/.quotaflow-tmp-1-bundle-0" && mkdir "$tmp/ekl/.keep"
setup: audit ingest --db "$tmp/ekl.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/ekl.db" --out "$tmp/ekl/bundle"
exit: 0
after-sh: test "$(LC_ALL=C ls -A "$tmp/ekl" | tr '\n' ' ')" = ".keep .quotaflow-tmp-1-bundle-0 bundle "
