# -o DIR owns only what it wrote (issue 12): a README, .gitkeep, hidden
# folders and hand-written manifests stay, and DIR keeps its mode.
setup-sh: mkdir -p "$tmp/kf/.git" && chmod 750 "$tmp/kf" && echo mine >"$tmp/kf/README.md" && : >"$tmp/kf/.gitkeep" && echo x >"$tmp/kf/.git/HEAD" && echo 'kind: ConfigMap' >"$tmp/kf/extra.yaml"
args: compile examples/tenants -o "$tmp/kf"
exit: 0
stdout-has: 34 files written
after-sh: test "$(cat "$tmp/kf/README.md")" = mine && test -f "$tmp/kf/.gitkeep" && test -f "$tmp/kf/.git/HEAD" && test -f "$tmp/kf/extra.yaml" && test "$(stat -c %a "$tmp/kf")" = 750 && grep -qx kustomization.yaml "$tmp/kf/.quotaflow-manifest"
