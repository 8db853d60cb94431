# lint of Tenants without their Pool says QF016 beside "no Pool" (QF307):
# it said only the latter, and the 012 came up once the Pool was given
args: lint tests/fixtures/spec/leading-zero-no-pool.yaml
exit: 1
stdout-has: leading-zero-no-pool.yaml:14:16: error: 012 is read as 10
stdout-has: [QF016]
stdout-has: [QF307]
