# audit ingest: a Kubernetes Event timed on a day the month has not (2026-02-30) or with an offset past +23:59 (+24:00) has no usable time (QF703), as the API server would not have taken it; they were stored at a date rolled over into March and a day early
args: audit ingest --db "$tmp/akebd.db" tests/fixtures/audit/k8s-events-bad-dates.json
exit: 1
stdout-has: ingested 3 records: 1 added, 2 rejected
stderr-has: k8s-events-bad-dates.json:2:338: error: Event without a usable time
stderr-has: k8s-events-bad-dates.json:3:338: error: Event without a usable time
after-sh: test "$("$QF" audit query --db "$tmp/akebd.db" "select workload, time_ms from events")" = "$(printf 'workload\ttime_ms\nns/w3\t1770069600000')"
