# the same compiled policy twice (a copy left beside the original): each
# object is QF422, and the duplicates do not make the queues look claimed
# by two teams (QF404 "X and X"), unreferenced (QF414) or the flavours
# unused (QF415)
setup-sh: "$QF" compile examples/tenants -o "$tmp/lintdup/a" >/dev/null 2>&1
setup-sh: cp -r "$tmp/lintdup/a" "$tmp/lintdup/b"
args: lint "$tmp/lintdup"
exit: 1
stdout-has: is defined twice [QF422]
stdout-not: [QF404]
stdout-not: [QF414]
stdout-not: [QF415]
