# A database of schema version 6 (written by quotaflow a8545b3, 2026-11-27: every event a row of `events`, before events in chunks; the simulator's scenario, Kubernetes events and an API audit log) is migrated by the next ingest to version 12: its 33 events keep their ids and their hash chain, whose head is the one that quotaflow printed, and a bundle exported after it verifies
setup-sh: cp tests/fixtures/audit/v6.db "$tmp/v6.db"
setup: audit ingest --db "$tmp/v6.db" tests/fixtures/audit/cluster.yaml
setup: audit export --db "$tmp/v6.db" --out "$tmp/v6-bundle"
args: audit verify --db "$tmp/v6.db"
exit: 0
after-sh: $QF audit verify "$tmp/v6-bundle" | grep -qx 'verified: 27 files, 33 events, chain head 4d121872b6eaf93c1f0821f774fffb095b89d10f3358dfda605b43cab185a949'
after-sh: $QF audit verify "$tmp/v6-bundle" | grep -qx "views: 12 files derived again from the bundle's events and evidence tables, the same"
--- stdout
verified: database: 33 events, chain head 4d121872b6eaf93c1f0821f774fffb095b89d10f3358dfda605b43cab185a949
evidence tables: 11, as the last ingest stored them
derived tables: 1 cluster derived again from the events, the same
