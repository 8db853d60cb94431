# Nothing is written through a link: a folder link on the way and a link
# to a 0600 file are refused, their targets untouched.
setup-sh: mkdir -p "$tmp/rl/out" "$tmp/rl/elsewhere" && ln -s ../elsewhere "$tmp/rl/out/clusterqueue" && echo secret >"$tmp/rl/secret" && chmod 600 "$tmp/rl/secret" && ln -s ../secret "$tmp/rl/out/kustomization.yaml"
args: compile examples/tenants -o "$tmp/rl/out"
exit: 1
stderr-has: out/clusterqueue:
stderr-has: out/kustomization.yaml:
stderr-has: error: is a symbolic link; quotaflow does not write through links [QF002]
stderr-not: clusterqueue/acme
after-sh: test -z "$(ls "$tmp/rl/elsewhere")" && test "$(cat "$tmp/rl/secret")" = secret && test "$(stat -c %a "$tmp/rl/secret")" = 600
