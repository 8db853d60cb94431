# A file it did not write where one of its files goes: an error naming
# it, and nothing is written.
setup-sh: mkdir -p "$tmp/rf" && echo 'mine: 1' >"$tmp/rf/kustomization.yaml"
args: compile examples/tenants -o "$tmp/rf"
exit: 1
stderr-has: rf/kustomization.yaml:
stderr-has: exists and was not written by quotaflow
after-sh: test "$(cat "$tmp/rf/kustomization.yaml")" = 'mine: 1' && test ! -e "$tmp/rf/clusterqueue" && test ! -e "$tmp/rf/.quotaflow-manifest"
