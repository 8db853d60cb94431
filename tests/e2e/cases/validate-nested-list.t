# Issue 13: a List inside a List is flattened (as kubectl does), so the bad
# object in the inner List is validated instead of passing unseen.
args: validate tests/fixtures/validate/hostile/nested-list.yaml
exit: 1
stdout-has: 1 object, 0 valid, 1 invalid, 0 skipped
stderr-has: tests/fixtures/validate/hostile/nested-list.yaml:12:13: error: Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain
