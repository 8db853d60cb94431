# --kueue-api v1beta1 renames cohortName; --format json prints one List.
args: compile examples/tenants --stdout --kueue-api v1beta1 --format json --source-commit 0123abc
exit: 0
stdout-has: "kind": "List"
stdout-has: "apiVersion": "kueue.x-k8s.io/v1beta1"
stdout-has: "cohort": "acme"
stdout-has: "quotaflow.dev/source-commit": "0123abc"
stdout-not: cohortName
