# a --source-commit that is not UTF-8 is a usage error; compile aborted
# (jansson refuses the annotation's string), exit 134 and no output
args: compile examples/tenants --source-commit "$(printf 'abc\377')"
exit: 2
stderr-has: error: compile: --source-commit "abc\xff" has a byte that is not UTF-8 (\xff) at byte 4
