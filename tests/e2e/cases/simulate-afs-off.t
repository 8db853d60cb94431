# simulate: with the AdmissionFairSharing feature gate off in the Configuration, the fair-sharing ClusterQueue orders by priority and creation again: vision-b, submitted first, goes first, and no LocalQueue gets an admissionFairSharingStatus.
setup-sh: sed 's/^admissionFairSharing:/featureGates: {AdmissionFairSharing: false}\nadmissionFairSharing:/' examples/simulate/fair-queues.yaml > "$tmp/afs-off.yaml"
args: simulate -f "$tmp/afs-off.yaml" --trace examples/simulate/fair-queues.jsonl --events "$tmp/afs-off.jsonl" --dump-state "$tmp/afs-off.json"
exit: 0
after-sh: grep '"reason":"Admitted"' "$tmp/afs-off.jsonl" | sed -n 2p | grep -q '"time_ms":1800000,.*job-vision-b'
after-sh: ! grep -q admissionFairSharingStatus "$tmp/afs-off.json"
