# audit ingest needs --db and at least one input
args: audit ingest tests/fixtures/audit/cluster.yaml
exit: 2
stderr-has: --db FILE is required
