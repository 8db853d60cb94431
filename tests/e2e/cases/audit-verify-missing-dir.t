# verify of a path that does not exist: exit 2 (a wrong path), not 1
# (which says the evidence was tampered with)
args: audit verify "$tmp/avm-nothing-here"
exit: 2
stderr-has: error: not an evidence bundle: no such directory
