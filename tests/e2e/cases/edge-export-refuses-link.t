# audit export --out naming a symbolic link (to a repository here) writes
# nothing through it and leaves no temporary directory behind (exit 2)
setup-sh: mkdir -p "$tmp/exl/repo" && echo keep >"$tmp/exl/repo/README" && ln -s repo "$tmp/exl/bundle"
setup: audit ingest --db "$tmp/exl/a.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/exl/a.db" --out "$tmp/exl/bundle"
exit: 2
stderr-has: /exl/bundle: error: is a symbolic link; export writes a new directory [QF002]
after-sh: test "$(ls -A "$tmp/exl/repo")" = README && test "$(ls -A "$tmp/exl" | grep -c quotaflow-tmp)" = 0
