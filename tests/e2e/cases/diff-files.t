# two manifest files on disk are compared as they are (they were taken for
# revisions: "unknown revision", or "not a git repository" outside one)
setup-sh: rm -rf "$tmp/dfl" && mkdir -p "$tmp/dfl" && cp examples/tenants/pool.yaml "$tmp/dfl/a.yaml" && sed 's/gpus: 128/gpus: 136/' examples/tenants/pool.yaml >"$tmp/dfl/b.yaml"
args: diff "$tmp/dfl/a.yaml" "$tmp/dfl/b.yaml"
exit: 0
stdout-has: tenants 0 added, 0 removed, 0 changed; Kueue objects 0 added, 0 removed, 1 changed
stdout-has: h100-ondemand: committed 0, headroom 128 -> 136
