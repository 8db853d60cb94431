# The README's simulate examples that need no cluster run on files of the
# repository and exit 0.
args: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml
exit: 0
after-sh: n=0; grep '^quotaflow simulate -f examples' README.md | sed 's/ *#.*//; s|summary.json|"$tmp/readme-sum.json"|' > "$tmp/readme-cmds" && while read -r l; do eval "\"\$QF\" ${l#quotaflow }" >/dev/null 2>&1 || exit 1; n=$((n + 1)); done < "$tmp/readme-cmds" && test "$n" -ge 2 && test -s "$tmp/readme-sum.json"
