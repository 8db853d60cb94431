#!/bin/sh
# metadata.generateName as kube-apiserver's name generator fills it: the
# prefix and five characters of its alphabet (no vowels, no 0, 1 or 3),
# a new name each time (it was a hex counter: "sample-job-0000d"); no
# name and no generateName is kube's 422 (tests/controller/lib.sh).
suite=genname
. "$(dirname "$0")/lib.sh"

start a --db "$tmp/a.db" || exit 1
k apply -f "$EX/setup.yaml" >/dev/null 2>&1 || bad "setup"
sed -e 's/^  name: job1$/  generateName: sample-job-/' "$EX/job1.yaml" >"$tmp/gen.yaml"
n1=$(k create -f "$tmp/gen.yaml" -o name 2>&1)
n2=$(k create -f "$tmp/gen.yaml" -o name 2>&1)
for n in "$n1" "$n2"; do
	case "$n" in
	job.batch/sample-job-[bcdfghjklmnpqrstvwxz2456789][bcdfghjklmnpqrstvwxz2456789][bcdfghjklmnpqrstvwxz2456789][bcdfghjklmnpqrstvwxz2456789][bcdfghjklmnpqrstvwxz2456789]) ok ;;
	*) bad "generated name '$n'" ;;
	esac
done
[ "$n1" != "$n2" ] && ok || bad "the same name twice: $n1"
sed -e '/^  name: job1$/d' "$EX/job1.yaml" >"$tmp/noname.yaml"
out=$(curl -s -X POST -H 'Content-Type: application/yaml' --data-binary @"$tmp/noname.yaml" \
	"http://127.0.0.1:$PORT/apis/batch/v1/namespaces/default/jobs" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["code"], d["message"])')
expect_eq "no name" "$out" '422 Job.batch "" is invalid: metadata.name: Required value: name or generateName is required'
stop || bad "stop"
finish
