# validate runs compile's cross-tenant checks on a Pool and its Tenants,
# with the same rule ids and positions (compile-spec-cross-checks.t).
args: validate tests/fixtures/spec/overcommitted-account.yaml
exit: 1
stdout-has: 3 objects, 2 valid, 1 invalid, 0 skipped
stderr-has: overcommitted-account.yaml:11:20: error: account "acme" is overcommitted on a100: its tenants commit 10 GPUs (t1 6, t2 4) but the account has 8 [QF311]
