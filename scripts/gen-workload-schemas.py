#!/usr/bin/env python3
# scripts/gen-workload-schemas.py - write schemas/kueue.x-k8s.io_VERSION_workload.json
# from Kueue's Workload CRD: its facts only (types, enums, patterns, limits,
# defaults, required fields), never its descriptions, and without its CEL
# rules, which quotaflow does not evaluate.  Of the pod template's spec only
# the paths leading to a default, `resources` whole and the fields those
# require are kept; every other object there is preserve-unknown-fields, so
# nothing a real Kueue keeps is refused (docs/controller.md says what is
# modelled).  Run it again when the Kueue version the schemas follow moves:
#
#   python3 scripts/gen-workload-schemas.py CRD.yaml schemas/
#
# where CRD.yaml is kueue.x-k8s.io_workloads.yaml of that release.  Needs
# python3-yaml; not part of the build (the JSON it writes is committed).
import yaml, json, sys
if len(sys.argv) != 3:
    sys.exit("usage: gen-workload-schemas.py CRD.yaml OUTDIR")
crd = yaml.safe_load(open(sys.argv[1]))
DROP = {'description', 'x-kubernetes-validations'}  # CEL: not evaluated here
def strip(n):
    if isinstance(n, dict):
        return {k: strip(x) for k, x in n.items() if k not in DROP}
    if isinstance(n, list):
        return [strip(x) for x in n]
    return n
def has_default(n):
    if isinstance(n, dict):
        if 'default' in n: return True
        return any(has_default(x) for k, x in n.items() if k in ('properties', 'items', 'additionalProperties') or isinstance(x, dict) and k not in ('default',))
    return False
def sub_has_default(n):
    return any(has_default(x) for x in n.get('properties', {}).values()) or ('items' in n and has_default(n['items'])) or 'default' in n
FULL = {'resources'}  # container and pod resources: kept whole
def reduce(n, top=False):
    """Keep only the nodes leading to a default (or kept whole), marking
    every kept object preserve-unknown-fields."""
    out = {k: v for k, v in n.items() if k not in ('properties', 'items', 'x-kubernetes-validations', 'required')}
    if 'items' in n:
        out['items'] = reduce(n['items'])
    if 'properties' in n:
        props = {}
        for k, v in n['properties'].items():
            if k in FULL:
                props[k] = v
            elif has_default(v) or k in n.get('required', []):
                props[k] = reduce(v)
        if props:
            out['properties'] = props
        req = [r for r in n.get('required', [])]
        if req:
            out['required'] = req
    if out.get('type') == 'object' and 'additionalProperties' not in out:
        out['x-kubernetes-preserve-unknown-fields'] = True
    return out
def typefirst(n):
    if isinstance(n, dict):
        o = {k: typefirst(n[k]) for k in ('type',) if k in n}
        o.update({k: typefirst(x) for k, x in n.items() if k != 'type'})
        return o
    if isinstance(n, list):
        return [typefirst(x) for x in n]
    return n
for v in crd['spec']['versions']:
    s = strip(v['schema']['openAPIV3Schema'])
    s['properties']['status'] = {'type': 'object', 'x-kubernetes-preserve-unknown-fields': True}
    item = s['properties']['spec']['properties']['podSets']['items']
    t = item['properties']['template']
    t['properties']['spec'] = reduce(t['properties']['spec'], True)
    name = 'kueue.x-k8s.io_%s_workload.json' % v['name']
    with open(sys.argv[2] + '/' + name, 'w') as f:
        json.dump(typefirst(s), f, indent=1)
        f.write('\n')
