# simulate: admission fair sharing (admissionScope UsageBasedAdmissionFairSharing and the Configuration's admissionFairSharing). vision used the 8 GPUs for 30 minutes, so when they free up speech-a goes before vision-b, submitted a minute earlier; each LocalQueue's decayed usage is in its status.fairSharing. Both used to be ignored: vision-b went first and no LocalQueue had the status.
args: simulate -f examples/simulate/fair-queues.yaml --trace examples/simulate/fair-queues.jsonl --events "$tmp/afs.jsonl" --dump-state "$tmp/afs.json"
exit: 0
after-sh: grep '"reason":"Admitted"' "$tmp/afs.jsonl" | sed -n 2p | grep -q '"time_ms":1800000,.*job-speech-a'
after-sh: grep '"reason":"Admitted"' "$tmp/afs.jsonl" | sed -n 3p | grep -q '"time_ms":2400000,.*job-vision-b'
after-sh: grep -q '"admissionFairSharingStatus": {' "$tmp/afs.json"
after-sh: grep -q '"nvidia.com/gpu": "6034609785n"' "$tmp/afs.json"
