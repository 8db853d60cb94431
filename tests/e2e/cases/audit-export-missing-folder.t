# export --out in a folder that does not exist: exit 2 naming --out (it
# was exit 1, "cannot create a temporary directory in: ...")
setup: audit ingest --db "$tmp/aem.db" tests/fixtures/audit/cluster.yaml
args: audit export --db "$tmp/aem.db" --out "$tmp/aem-missing/bundle"
exit: 2
stderr-has: /aem-missing/bundle: error: --out: the folder
stderr-has: hint: create it first, or give a path in a folder that exists
after-sh: test ! -e "$tmp/aem-missing"
