# lint of a folder without manifests (a mistyped path in CI) is an error,
# not "0 errors" and exit 0, as validate (QF004)
setup-sh: mkdir -p "$tmp/lno/empty"
args: lint "$tmp/lno/empty"
exit: 1
stdout-has: error: no objects to lint: no *.yaml, *.yml or *.json file under the paths given [QF004]
