# lint --repo without --git-range used to lint the working tree and ignore
# --repo without a word: a usage error (exit 2)
args: lint examples/tenants --repo examples
exit: 2
stderr-has: lint: --repo DIR goes with --git-range BASE..HEAD
