#!/bin/sh
# Watches opened under load (C4): while Jobs stream in over 8 connections
# (so a batch is nearly always open or committing), ten watches without a
# resourceVersion start one after another; each must show every Job of the
# run once as ADDED (in its current state or as a later event) and never
# an event twice, although its current state was read while changes it
# holds were not yet committed (tests/controller/lib.sh).
suite=watch
. "$(dirname "$0")/lib.sh"
LOAD=${CTL_LOAD:-$ROOT/build/tests/ctl_load}
[ -x "$LOAD" ] || { echo "controller/$suite: $LOAD missing: skipped"; exit 0; }

start w --db "$tmp/w.db" || exit 1
k create -f "$EX/crash.yaml" >/dev/null 2>&1 || bad "setup"
for round in 1 2; do
	out=$("$LOAD" "$PORT" default user-queue "w$round" 400 8 - \
		--watches 10 2>"$tmp/load$round.err")
	expect_has "round $round created" "$out" "created 400 of 400"
	expect_has "round $round watches" "$out" \
		"watch duplicates: 0, missing: 0 in 10 watches"
	[ -s "$tmp/load$round.err" ] && echo "$(head -5 "$tmp/load$round.err")"
done
stop
expect_eq "stop" "$?" "0"
finish
