# compile -o's summary line counts one tenant as "1 tenant" (it said
# "1 tenants"), as validate and lint count one object since 9b56168
args: compile tests/fixtures/spec/lent-floor.yaml -q -o "$tmp/one-tenant"
exit: 0
stdout-has: compiled pool p1: 1 tenant, 6 objects, 8 files written to
stdout-not: 1 tenants
