# Issue 13: "\0" in a double-quoted string is refused where it is, not cut
# short by every C-string consumer ("rf\0evil" validating as "rf").
args: validate tests/fixtures/validate/hostile/nul-in-name.yaml
exit: 1
stdout-has: 0 objects, 0 valid, 0 invalid, 0 skipped, 1 file not loaded
stderr-has: tests/fixtures/validate/hostile/nul-in-name.yaml:5:9: error: string contains a NUL character (\0) [QF015]
