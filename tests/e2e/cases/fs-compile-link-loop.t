# compile over a directory with link loops reads each tenant once.
setup-sh: mkdir -p "$tmp/cloop/t" && cp examples/tenants/*.yaml "$tmp/cloop/t/" && ln -s . "$tmp/cloop/t/a" && ln -s .. "$tmp/cloop/t/b"
args: compile "$tmp/cloop" --stdout
exit: 0
stdout-has: kind: ClusterQueue
stderr-has: skipped: the same directory as
stderr-not: error
