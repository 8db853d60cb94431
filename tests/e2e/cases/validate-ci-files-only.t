# Files that hold no Kubernetes object at all are no objects to validate:
# still QF004, exit 1 (a mistyped folder must not pass); and a document
# with kind but no apiVersion is still an error.
setup-sh: mkdir -p "$tmp/cionly" && printf 'kind: ClusterQueue\nspec: {}\n' >"$tmp/cionly/kind-only.yaml"
args: validate examples/ci "$tmp/cionly/kind-only.yaml"
exit: 1
stdout-has: 1 object, 0 valid, 1 invalid, 0 skipped
stderr-has: kind-only.yaml:1:1: error: not a Kubernetes object: apiVersion is missing or not a string [QF101]
stderr-has: examples/ci/gitlab-ci.yml:4:1: note: not a Kubernetes object (no apiVersion, kind or metadata): skipped [QF101]
