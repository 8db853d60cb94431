# two outputs naming one existing file: refused (the second would
# overwrite the first)
setup-sh: mkdir -p "$tmp/sto" && echo '{}' >"$tmp/sto/out.json"
args: simulate -f tests/fixtures/audit/cluster.yaml --trace tests/fixtures/audit/trace.jsonl --events "$tmp/sto/out.json" --summary "$tmp/sto/out.json"
exit: 2
stderr-has: /sto/out.json: error: is named for two outputs; the second would overwrite the first [QF002]
