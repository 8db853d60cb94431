# -f takes directories like kubectl: every manifest below, sorted
args: simulate -f examples/simulate --trace examples/simulate/trace.jsonl --events /dev/stdout
exit: 0
stdout-has: "reason":"QuotaReserved"
stdout-has: "reason":"Finished"
