# audit export --out -: refused as a usage error (exit 2, nothing made): "-" is standard output everywhere else, and export made a folder named "-" in the working directory (run in a scratch folder, so a failure leaves nothing in the repository)
setup: audit ingest --db "$tmp/aeos.db" tests/fixtures/audit/cluster.yaml
setup-sh: mkdir "$tmp/aeos-cwd"
args: audit verify --db "$tmp/aeos.db"
exit: 0
after-sh: cd "$tmp/aeos-cwd" && "$QF" audit export --db ../aeos.db --out - 2>../aeos.err; test $? = 2 && test ! -e ./- && grep -qF -- '-: error: --out: a bundle is a folder of files, which standard output (-) cannot hold [QF002]' ../aeos.err
