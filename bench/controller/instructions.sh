#!/bin/sh
# bench/controller/instructions.sh - the controller's instructions per Job
# under valgrind's callgrind, the figure of docs/performance.md that does
# not move with the load of a shared machine: a controller on loopback with
# a fresh database (bench/controller/setup.yaml), 200 Jobs to warm it up,
# BACKLOG Workloads waiting in the "busy" ClusterQueue, then the counters
# are zeroed and COUNT Jobs are created over CONNS connections
# (tests/controller/ctl_load, with --watch to time them too); the counts of
# every thread of the controller, divided by COUNT.  Batches differ from run
# to run (commits carry what arrived meanwhile), so figures move by a
# percent or two.  Needs valgrind and kubectl; about a minute.
#
# usage: sh bench/controller/instructions.sh build/quotaflow [COUNT] [CONNS]
#        [BACKLOG] [--watch]
QF=${1:-build/quotaflow}
N=${2:-500}
C=${3:-8}
BACKLOG=${4:-0}
W=$5
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/../.." || exit 2
LOAD=$(dirname "$QF")/tests/ctl_load
[ -x "$LOAD" ] || make -s "$LOAD" || exit 2
for t in valgrind callgrind_control callgrind_annotate kubectl; do
	command -v $t >/dev/null 2>&1 || { echo "instructions: $t missing"; exit 2; }
done
tmp=$(mktemp -d)
HOME=$tmp KUBECACHEDIR=$tmp/kcache
export HOME KUBECACHEDIR
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
	"$QF" controller --db "$tmp/bench.db" --listen 127.0.0.1:0 \
	2>"$tmp/log" &
pid=$!
trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
i=0
port=""
while [ -z "$port" ] && [ $i -lt 600 ]; do
	sleep 0.1
	port=$(sed -n 's/.*listening on .* port \([0-9]*\).*/\1/p' "$tmp/log")
	i=$((i + 1))
done
[ -n "$port" ] || { cat "$tmp/log"; exit 2; }
timeout 60 kubectl --server "http://127.0.0.1:$port" create \
	-f bench/controller/setup.yaml >/dev/null || exit 2
"$LOAD" "$port" default fast warm 200 "$C" - >/dev/null || exit 2
if [ "$BACKLOG" -gt 0 ]; then
	"$LOAD" "$port" default busy backlog "$BACKLOG" 32 - >/dev/null || exit 2
fi
callgrind_control -z $pid >/dev/null 2>&1 || exit 2
"$LOAD" "$port" default fast cg "$N" "$C" - $W
callgrind_control -d $pid >/dev/null 2>&1 || exit 2
kill -TERM $pid
wait $pid
dump=$(ls -t "$tmp"/cg.out.* | head -1)
total=$(callgrind_annotate "$dump" 2>/dev/null |
	sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
[ -n "$total" ] || exit 2
echo "instructions per Job: $((total / N)) ($N Jobs, $C connections, $BACKLOG pending${W:+, watched})"
