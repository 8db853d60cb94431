# finish and delete name a Job as users know it (or its Workload); delete
# needs only kind, namespace and name.  The Job's Workload finishes at 1s
# (not at its 60s runtime) and the deleted one is gone from the state.
args: simulate -f examples/simulate/cluster.yaml --trace tests/fixtures/simulate/trace-names.jsonl --events "$tmp/ev.jsonl" --dump-state "$tmp/st.json"
exit: 0
after-sh: grep -q '{"time_ms":1000,"type":"Normal","reason":"Finished","workload":"team-a/job-train-7efd8"' "$tmp/ev.jsonl"
after-sh: ! grep -q job-serve "$tmp/st.json"
after-sh: grep -q job-train "$tmp/st.json"
