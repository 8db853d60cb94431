# The skipped command line is reported as a warning, not an error (QF705)
args: audit ingest --db "$tmp/audit-pastew.db" tests/fixtures/audit/pasted-workload.txt
exit: 0
stderr-has: pasted-workload.txt:1:1: warning: skipped a pasted shell command line [QF705]
