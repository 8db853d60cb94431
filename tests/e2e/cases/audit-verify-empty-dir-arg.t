# audit verify '' (an unset shell variable) is a usage error saying so,
# as --db '' is (it was ": error: not an evidence bundle: no such
# directory", a file name of nothing)
args: audit verify ''
exit: 2
stderr-has: audit verify: DIR is an empty string; give the directory audit export --out wrote
stderr-has: usage: quotaflow audit verify DIR | --db FILE
