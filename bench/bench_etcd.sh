#!/bin/sh
# bench/bench_etcd.sh - the storage half of the kube-apiserver + etcd peer
# figure for the controller benchmark (issue 15): etcd (Debian's
# etcd-server, scripts/install-deps.sh bench) on loopback with a fresh data
# directory on the same disk, durable puts of Job-sized values (VALUE_BYTES,
# default 1500: a Job as kube-apiserver stores it) through its JSON gateway,
# the way bench/bench_controller.sh creates Jobs: N puts over 32 keep-alive
# connections, then 500 over 4 connections for latency; etcd's CPU per put
# from /proc.  kube-apiserver itself is not packaged in Debian and cannot
# be built here (Go modules need the network), so the API server's own
# cost is not in these figures: they are a floor for kube-apiserver + etcd.
#
# usage: sh bench/bench_etcd.sh [build/quotaflow] [N] [VALUE_BYTES]
# (bench/run.sh passes the binary first; it is not needed here)
N=${2:-4000}
V=${3:-1500}
cd "$(dirname "$0")/.." || exit 2
command -v etcd >/dev/null 2>&1 || {
	echo "bench_etcd: etcd missing (sh scripts/install-deps.sh bench): skipped"
	exit 0
}
OUT=build/bench
mkdir -p "$OUT"
cc -O2 -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I. \
	-o "$OUT/etcd_put" bench/etcd_put.c || exit 2
tmp=$(mktemp -d)
port=$((20000 + $$ % 20000))
etcd --name bench --data-dir "$tmp/data" \
	--listen-client-urls "http://127.0.0.1:$port" \
	--advertise-client-urls "http://127.0.0.1:$port" \
	--listen-peer-urls "http://127.0.0.1:$((port + 1))" \
	--initial-advertise-peer-urls "http://127.0.0.1:$((port + 1))" \
	--initial-cluster "bench=http://127.0.0.1:$((port + 1))" \
	>"$tmp/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
i=0
until grep -q "ready to serve client requests" "$tmp/log"; do
	i=$((i + 1))
	[ $i -lt 200 ] && kill -0 $pid 2>/dev/null || {
		tail -5 "$tmp/log"
		exit 2
	}
	sleep 0.05
done
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
echo "## etcd $(etcd --version | sed -n 's/etcd Version: //p'): $N puts of $V bytes, 32 connections"
a=$(cpu)
"$OUT/etcd_put" "$port" "$N" 32 "$V"
b=$(cpu)
echo "etcd CPU: $(((b - a) * 1000000 / hz / N)) us per put"
echo "## etcd: 500 puts of $V bytes, 4 connections"
"$OUT/etcd_put" "$port" 500 4 "$V"
