# A database of a newer schema version is a clear error
args: audit query --db tests/fixtures/audit/newer.db "select 1"
exit: 1
stderr-has: database schema version 99 is newer than this quotaflow understands (12)
