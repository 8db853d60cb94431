# verify of a file is a usage error (exit 2) that says it is a file, not
# "no such directory" and not exit 1 (tampering)
setup-sh: printf 'x\n' >"$tmp/avf.txt"
args: audit verify "$tmp/avf.txt"
exit: 2
stderr-has: /avf.txt: error: not an evidence bundle: it is a file, not a directory
