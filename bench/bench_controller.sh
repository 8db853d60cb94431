#!/bin/sh
# bench/bench_controller.sh - the controller on loopback (issue 15):
#   1. Job creations per second, each one durable (committed, fsync'd)
#      before its 201: tests/controller/ctl_load over 32 keep-alive
#      connections, N Jobs (default 4000); also the controller's CPU time
#      per Job (from /proc, the steady figure on a shared machine);
#   2. admission latency, creation -> spec.suspend=false seen on a watch,
#      p50/p99 of 500 Jobs sent over 4 connections while 1,000 and then
#      10,000 Workloads wait in another ClusterQueue (with the controller's
#      CPU per Job of those runs too);
#   3. the load average and one synchronous 4 KiB write on the database's
#      disk (dd oflag=dsync), the same minutes: on a shared machine the
#      wall figures move with both.
# Targets: >= 2,000 creations/s; p99 < 50 ms.  Bounded: ~30 s, loopback.
#
# usage: sh bench/bench_controller.sh build/quotaflow [N]
QF=${1:-build/quotaflow}
N=${2:-4000}
case "$QF" in /*) ;; *) QF=$(pwd)/$QF ;; esac
cd "$(dirname "$0")/.." || exit 2
LOAD=$(dirname "$QF")/tests/ctl_load
[ -x "$LOAD" ] || make -s "$LOAD" || exit 2
command -v kubectl >/dev/null 2>&1 || { echo "bench_controller: kubectl missing"; exit 0; }
tmp=$(mktemp -d)
HOME=$tmp KUBECACHEDIR=$tmp/kcache
export HOME KUBECACHEDIR
"$QF" controller --db "$tmp/bench.db" --listen 127.0.0.1:0 2>"$tmp/log" &
pid=$!
trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
i=0
port=""
while [ -z "$port" ] && [ $i -lt 100 ]; do
	sleep 0.05
	port=$(sed -n 's/.*listening on .* port \([0-9]*\).*/\1/p' "$tmp/log")
	i=$((i + 1))
done
[ -n "$port" ] || { cat "$tmp/log"; exit 2; }
timeout 30 kubectl --server "http://127.0.0.1:$port" create \
	-f bench/controller/setup.yaml >/dev/null || exit 2
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)

# `load PREFIX COUNT CONNS [--watch]`, then the controller's CPU per Job
load() {
	a=$(cpu)
	"$LOAD" "$port" default fast "$1" "$2" "$3" - $4
	b=$(cpu)
	echo "controller CPU (user+sys): $(((b - a) * 1000000 / hz / $2)) us per Job"
}
echo "## load average: $(cut -d' ' -f1-3 /proc/loadavg)"
dd if=/dev/zero of="$tmp/dsync" bs=4k count=20 oflag=dsync 2>&1 |
	awk '/copied/ { printf "one 4 KiB dsync write: %.1f ms\n", $(NF-3) * 50 }'
echo "## controller: $N Job creations, 32 connections"
load tput "$N" 32
"$LOAD" "$port" default busy backlog 1000 32 - >/dev/null
echo "## admission latency with 1000 pending"
load lat1k 500 4 --watch
"$LOAD" "$port" default busy backlog2 9000 32 - >/dev/null
echo "## admission latency with 10000 pending"
load lat10k 500 4 --watch
echo "pending: $(timeout 10 kubectl --server "http://127.0.0.1:$port" get \
	--raw /metrics | sed -n 's/^kueue_pending_workloads{cluster_queue="busy",status="inadmissible"} //p')"
echo "## load average: $(cut -d' ' -f1-3 /proc/loadavg)"
kill -TERM $pid
wait $pid
