# The same finding as validate-spec-cross-checks.t, at the same place.
args: compile tests/fixtures/spec/overcommitted-account.yaml --stdout
exit: 1
stderr-has: overcommitted-account.yaml:11:20: error: account "acme" is overcommitted on a100: its tenants commit 10 GPUs (t1 6, t2 4) but the account has 8 [QF311]
