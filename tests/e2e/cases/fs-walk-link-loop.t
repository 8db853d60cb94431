# Two links to . in an input directory: every file is read once, each loop
# gets a note, and nothing hangs (issue 13).
setup-sh: mkdir -p "$tmp/loop" && cp examples/tenants/*.yaml "$tmp/loop/" && ln -s . "$tmp/loop/a" && ln -s . "$tmp/loop/b"
args: validate "$tmp/loop"
exit: 0
stderr-has: note: skipped: the same directory as
stderr-has: [QF005]
stdout-has: 9 objects, 9 valid
