# The spec's quantities Kueue cannot count as written are errors at their
# field: a per-GPU quantity past the 64-bit range (compile wrote
# nominalQuota: 80e399) or with a binary suffix on a count (1Ki cpu), a
# weight past the range (weight: 10e399) or at most 1n (Kueue refuses it;
# compile wrote weight "0"), a number too small for YAML (1.0e-400 is 0)
setup-sh: mkdir -p "$tmp/q" && cp examples/tenants/*.yaml "$tmp/q/" && sed -i 's/cpu: "16"/cpu: 1e400/; s/memory: 128Gi/memory: 8Ei/' "$tmp/q/pool.yaml" && sed -i 's/fairShareWeight: 2/fairShareWeight: 1.0e-12/; 0,/resourcesPerGpu: {cpu: "24", memory: 240Gi}/s//resourcesPerGpu: {cpu: 1Ki, memory: 1.0e-400}/' "$tmp/q/acme.yaml"
args: compile "$tmp/q" --stdout
exit: 1
stderr-has: q/pool.yaml:52:10: error: cpu per GPU "1e400" is past the 64-bit range: Kueue counts cpu in 64-bit millicores and reads more than 9223372036854775 as unlimited [QF304]
stderr-has: q/pool.yaml:53:13: error: memory per GPU "8Ei" is past the 64-bit range: Kubernetes caps it at 9223372036854775807 [QF304]
stderr-has: q/acme.yaml:66:20: error: fairShareWeight 1e-12 is not 0 and not above 0.000000001, the least weight Kueue takes [QF304]
stderr-has: q/acme.yaml:34:26: error: cpu per GPU "1Ki" is 1024 cpu: Ki, Mi, Gi ... are powers of 1024
stderr-has: q/acme.yaml:34:39: error: "memory" is 1.0e-400, a number too small for YAML to read: it reads 0 [QF303]
stdout-not: nominalQuota
