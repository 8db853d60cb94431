# Workflow commands land on the offending field.
args: lint tests/fixtures/lint/QF402-bad.yaml --format github
exit: 1
stdout-has: ::error file=tests/fixtures/lint/QF402-bad.yaml,line=19,col=17,title=QF402::"team-a" names flavour "a10", but no ResourceFlavor has that name
