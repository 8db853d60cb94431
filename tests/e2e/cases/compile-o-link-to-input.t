# -o naming a link to the spec folder, or the spec folder spelled another
# way (absolute for relative): the same folder, so nothing is read from it
# and nothing written into it (the first run wrote 34 files among the
# spec's, and every later run failed on them as input, QF307)
setup-sh: rm -rf "$tmp/oli" && mkdir -p "$tmp/oli" && cp -r examples/tenants "$tmp/oli/t" && ln -s t "$tmp/oli/out"
args: compile "$tmp/oli/t" -o "$tmp/oli/out"
exit: 1
stderr-has: error: every input file (4) is in
after-sh: test ! -e "$tmp/oli/t/clusterqueue" && test ! -e "$tmp/oli/t/.quotaflow-manifest" && cd "$tmp/oli" && { "$QF" compile t -o "$tmp/oli/t" 2>"$tmp/oli.err"; test $? = 1; } && grep -q "every input file (4) is in" "$tmp/oli.err" && test ! -e "$tmp/oli/t/clusterqueue"
