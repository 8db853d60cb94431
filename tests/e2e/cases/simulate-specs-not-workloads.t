# A spec where workloads are expected (--submit) is an error, not ignored.
args: simulate -f examples/simulate/cluster.yaml --submit examples/tenants/pool.yaml
exit: 1
stderr-has: examples/tenants/pool.yaml:3:1: error: a Pool/Tenant spec is not accepted here
