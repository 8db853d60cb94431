#!/bin/sh
# --events FILE: appended to only when it is a JSON lines log (or new), a
# torn last line of a killed run cut off first, and every line it writes
# whole (tests/controller/lib.sh).  Full-disk behaviour (lines kept and
# written once there is room again) was checked by hand on a small tmpfs.
suite=events
. "$(dirname "$0")/lib.sh"

printf '{"kept":1}\n{"torn":' >"$tmp/ev.jsonl"
start a --db "$tmp/a.db" --events "$tmp/ev.jsonl" || exit 1
expect_has "torn line logged" "$(cat "$tmp/a.log")" "cut its torn last line (8 bytes)"
k create -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "create setup"
k create -f "$EX/job1.yaml" >/dev/null 2>&1 || bad "create job1"
wait_for "job1 runs" "k get job job1 -o jsonpath='{.spec.suspend}'" "false"
stop || bad "stop"
expect_eq "first line kept" "$(head -1 "$tmp/ev.jsonl")" '{"kept":1}'
expect_eq "torn fragment gone" "$(grep -c '"torn"' "$tmp/ev.jsonl")" "0"
expect_has "events appended" "$(cat "$tmp/ev.jsonl")" "QuotaReserved"
# every line the controller wrote is a whole event line: the audit takes
# them all and rejects only the hand-written first one
out=$("$QF" audit ingest --db "$tmp/ev.db" --format quotaflow "$tmp/ev.jsonl" 2>&1)
expect_has "all lines whole" "$out" " 1 rejected"

# a file that is not a JSON lines log is never appended to: exit 2
printf '# notes\n' >"$tmp/notes.md"
"$QF" controller --db "$tmp/b.db" --listen 127.0.0.1:0 --events "$tmp/notes.md" 2>"$tmp/b.err"
expect_eq "foreign file exit" "$?" "2"
expect_has "foreign file error" "$(cat "$tmp/b.err")" "is not a JSON lines log"
expect_eq "foreign file untouched" "$(cat "$tmp/notes.md")" "# notes"

finish
