# Every kind in both versions, a List in JSON, a v1beta1 legacy spelling.
args: validate tests/fixtures/validate/good
exit: 0
--- stdout
8 objects, 8 valid, 0 invalid, 0 skipped
--- stderr
