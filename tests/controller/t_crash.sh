#!/bin/sh
# Crash safety (issue 15): Jobs stream in over 8 connections while the
# controller is killed with SIGKILL three times and restarted on the same
# database.  Then: every Job the controller acknowledged exists with
# exactly one Workload (none lost), no Workload got quota twice (one
# QuotaReserved event each in the durable event table), the quota used is
# exactly what the admitted Workloads add up to, and every queued Job ahead
# of the quota was admitted (tests/controller/lib.sh).
suite=crash
. "$(dirname "$0")/lib.sh"
LOAD=${CTL_LOAD:-$ROOT/build/tests/ctl_load}
[ -x "$LOAD" ] || { echo "controller/$suite: $LOAD missing: skipped"; exit 0; }

db=$tmp/crash.db
acc=$tmp/accepted
: >"$acc"
start c0 --db "$db" || exit 1
k create -f "$EX/crash.yaml" >/dev/null 2>&1 || bad "setup"
for round in 1 2 3; do
	"$LOAD" "$PORT" default user-queue "r$round" 600 8 "$acc" \
		>"$tmp/load$round.out" 2>&1 &
	lp=$!
	# let some of them land, then pull the plug mid-stream
	sleep 0.$((3 + round))
	kill -9 "$PID"
	wait "$PID" 2>/dev/null
	wait "$lp"
	start "c$round" --db "$db" || exit 1
done
"$LOAD" "$PORT" default user-queue r4 100 8 "$acc" >"$tmp/load4.out" 2>&1 ||
	bad "last load"
stop
expect_eq "stop" "$?" "0"
sort -u "$acc" -o "$acc"
n=$(wc -l <"$acc")
if [ "$n" -gt 50 ]; then ok; else bad "only $n Jobs acknowledged: $(cat "$tmp"/load*.out)"; fi
# the state as a restarted controller serves it
start final --db "$db" || exit 1
k get jobs -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | sort >"$tmp/jobs"
missing=$(comm -23 "$acc" "$tmp/jobs" | head -3)
expect_eq "acknowledged Jobs kept" "$missing" ""
k get workloads -o jsonpath='{range .items[*]}{.metadata.ownerReferences[0].name} {.status.admission.clusterQueue}{"\n"}{end}' \
	| sort >"$tmp/wls"
expect_eq "one Workload per Job" "$(cut -d' ' -f1 "$tmp/wls" | uniq -d | head -3)" ""
expect_eq "a Workload for each Job" "$(cut -d' ' -f1 "$tmp/wls" | comm -13 - "$tmp/jobs" | head -3)" ""
admitted=$(grep -c ' cluster-queue$' "$tmp/wls")
jobs=$(wc -l <"$tmp/jobs")
want=$((jobs < 150 ? jobs : 150))
expect_eq "admitted up to the quota" "$admitted" "$want"
usage=$(k get --raw /metrics | sed -n 's/^kueue_cluster_queue_resource_usage{.*resource="cpu"} //p')
expect_eq "usage as recomputed" "$usage" "$admitted.000"
stop
expect_eq "final stop" "$?" "0"
if command -v sqlite3 >/dev/null 2>&1; then
	twice=$(sqlite3 "$db" "SELECT json_extract(json,'\$.workload') w FROM events WHERE json_extract(json,'\$.reason')='QuotaReserved' GROUP BY w HAVING count(*) > 1 LIMIT 3")
	expect_eq "no Workload reserved twice" "$twice" ""
	reserved=$(sqlite3 "$db" "SELECT count(DISTINCT json_extract(json,'\$.workload')) FROM events WHERE json_extract(json,'\$.reason')='QuotaReserved'")
	expect_eq "every admission has its event" "$reserved" "$admitted"
fi
sed 's/^/  load: /' "$tmp"/load*.out
finish
