# YAML that is no Kubernetes object at all (no apiVersion, kind or
# metadata: a CI workflow, a compose file) beside the manifests is noted
# and skipped; every one was an error, so `quotaflow lint examples` (or
# `lint .` at a repository's top) failed on the CI examples.
args: lint examples/ci examples/tenants
exit: 0
stdout-has: examples/ci/github-actions.yml:4:1: note: not a Kubernetes object (no apiVersion, kind or metadata): skipped [QF101]
stdout-has: 0 errors, 3 warnings, 6 notes
stdout-not: error: not a Kubernetes object
