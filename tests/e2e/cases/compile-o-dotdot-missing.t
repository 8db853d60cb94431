# -o with ".." after a folder that does not exist is refused before anything
# is made: t/sub/../../out made t/sub (as mkdir -p and git init do) and wrote
# out, leaving a folder nobody named
setup-sh: rm -rf "$tmp/dd" && mkdir -p "$tmp/dd/t"
args: compile examples/tenants -o "$tmp/dd/t/sub/../../out"
exit: 2
stderr-has: t/sub/../../out: error: the path goes back up ("..") out of
stderr-has: dd/t/sub", which does not exist; nothing was created [QF002]
stderr-has: hint: name the folder without ".." after a folder that does not exist
after-sh: test ! -e "$tmp/dd/t/sub" && test ! -e "$tmp/dd/out"
