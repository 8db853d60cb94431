# simulate: preemption under admission fair sharing. speech-long and vision-long hold 4 GPUs each, reserved at the same time with the same priority; the urgent high-priority job needs 4: Kueue preempts the workload of the LocalQueue that used more (vision, which had all 8 GPUs for the first 10 minutes), where priority, time and UID alone would pick speech-long.
args: simulate -f tests/fixtures/simulate/afs-preempt.yaml --trace tests/fixtures/simulate/afs-preempt.jsonl --events "$tmp/afs-pre.jsonl"
exit: 0
after-sh: grep '"reason":"Preempted"' "$tmp/afs-pre.jsonl" | grep -q 'job-vision-long'
after-sh: ! grep '"reason":"Preempted"' "$tmp/afs-pre.jsonl" | grep -q 'job-speech-long'
