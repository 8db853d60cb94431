# A List whose items are not a list is refused, as kubectl refuses it (it
# was taken for one object of kind List: validate skipped it, lint said
# nothing, simulate ignored it with a warning).
args: validate tests/fixtures/doc/bad/list-items-not-list.yaml
exit: 1
stderr-has: list-items-not-list.yaml:5:8: error: items of a List is a mapping; expected a list of objects [QF014]
