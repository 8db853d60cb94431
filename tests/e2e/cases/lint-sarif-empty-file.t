# One file that holds no document, linted alone: QF004 is a SARIF result
# located at that file (code scanning annotates it), not a notification
# of no file
setup-sh: mkdir -p "$tmp/sef" && printf -- '---\n' >"$tmp/sef/empty.yaml"
args: lint "$tmp/sef" --format sarif
exit: 1
stdout-has: "ruleId": "QF004"
stdout-has: sef/empty.yaml"
stdout-not: "toolExecutionNotifications"
