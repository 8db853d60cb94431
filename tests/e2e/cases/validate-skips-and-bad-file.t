# Kinds without a schema are skipped, not failed; a file that does not
# parse fails the run and is counted.
args: validate tests/fixtures/validate/other
exit: 1
stdout-has: 1 object, 0 valid, 0 invalid, 1 skipped, 1 file not loaded
stderr-has: broken.yaml:5:18: error: YAML syntax error
