# --summary usage_pct is per resource, the GPU resource first: memory
# bytes no longer swamp the GPUs (a sum over resources did).
args: simulate -f examples/tenants -f examples/demo/namespaces.yaml --trace examples/demo/trace.jsonl --summary "$tmp/sum-res.json"
exit: 0
after-sh: tr -d ' \n' <"$tmp/sum-res.json" | grep -q '"initech-ml":{"usage_pct":{"nvidia.com/gpu":200.0,"quotaflow.dev/gpus":200.0,"cpu":150.0,"memory":150.0}}'
