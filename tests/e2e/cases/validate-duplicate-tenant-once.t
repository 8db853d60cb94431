# A tenant defined twice (a file copied beside itself) is that error
# (QF306) alone: its copy's GPUs were counted again (QF311 'acme-inference
# 32, acme-inference 32'), its namespaces claimed twice (QF313 'belongs to
# tenants "applied-ai" and "applied-ai"'), its warnings said twice
setup-sh: rm -rf "$tmp/dupt" && mkdir -p "$tmp/dupt" && cp examples/tenants/*.yaml "$tmp/dupt/" && cp examples/tenants/acme.yaml "$tmp/dupt/acme-copy.yaml"
args: validate "$tmp/dupt"
exit: 1
stderr-has: acme.yaml:5:9: error: tenant "applied-ai" is defined twice [QF306]
stderr-has: acme.yaml:55:9: error: tenant "acme-research" is defined twice [QF306]
stderr-not: QF311
stderr-not: QF313
stderr-has: acme-copy.yaml:65:15: warning
stderr-not: /acme.yaml:65:15: warning
