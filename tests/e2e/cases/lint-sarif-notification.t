# A finding of no file (QF004: nothing to lint) is a notification of the
# SARIF run, not a result without a location, which makes code scanning
# refuse the whole log ("expected at least one location").  Two files: one
# file given alone that holds no document is the error's place.
setup-sh: mkdir -p "$tmp/sarifnotify" && printf -- '---\n' >"$tmp/sarifnotify/empty.yaml" && printf -- '# nothing\n' >"$tmp/sarifnotify/empty2.yaml"
args: lint "$tmp/sarifnotify" --format sarif
exit: 1
stdout-not: "locations": []
stdout-has: "toolExecutionNotifications": [
stdout-has: "id": "QF004"
stdout-has: "results": []
