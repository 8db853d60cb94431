#!/bin/sh
# The Argo CD example builds with kubectl kustomize: the top-level
# kustomization on its own, and the component over a stand-in
# argocd-repo-server Deployment (the shape of Argo CD's install manifest),
# where the sidecar must land next to the repo server and mount the plugin
# configuration; the same patch applies with `kubectl patch --local`.
cd "$(dirname "$0")/../.." || exit 2
command -v kubectl >/dev/null || { echo "gitops: kubectl missing (scripts/install-deps.sh test)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # file, fixed string, what
	grep -qF -- "$2" "$1" || { echo "gitops: FAIL: $3 (no '$2')"; fail=1; }
}
kubectl kustomize examples/gitops/argocd >"$tmp/top.yaml" 2>"$tmp/err" ||
	{ echo "gitops: FAIL: kubectl kustomize examples/gitops/argocd"; cat "$tmp/err"; fail=1; }
check "$tmp/top.yaml" "name: quotaflow-cmp" "the plugin ConfigMap"

mkdir -p "$tmp/argocd"
cat >"$tmp/argocd/repo-server.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: argocd-repo-server
  namespace: argocd
spec:
  selector:
    matchLabels: {app.kubernetes.io/name: argocd-repo-server}
  template:
    metadata:
      labels: {app.kubernetes.io/name: argocd-repo-server}
    spec:
      containers:
        - name: argocd-repo-server
          image: quay.io/argoproj/argocd:v2.13.0
          volumeMounts:
            - {name: var-files, mountPath: /var/run/argocd}
            - {name: plugins, mountPath: /home/argocd/cmp-server/plugins}
      volumes:
        - {name: var-files, emptyDir: {}}
        - {name: plugins, emptyDir: {}}
YAML
cat >"$tmp/argocd/kustomization.yaml" <<YAML
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [repo-server.yaml]
components: [$(realpath --relative-to="$tmp/argocd" examples/gitops/argocd/component)]
YAML
if kubectl kustomize "$tmp/argocd" >"$tmp/out.yaml" 2>"$tmp/err"; then
	check "$tmp/out.yaml" "name: argocd-repo-server" "the repo server container kept"
	check "$tmp/out.yaml" "image: registry.example.com/platform/quotaflow" "the sidecar added"
	check "$tmp/out.yaml" "- /var/run/argocd/argocd-cmp-server" "the sidecar runs cmp-server"
	check "$tmp/out.yaml" "mountPath: /home/argocd/cmp-server/config/plugin.yaml" "the plugin configuration mounted"
	check "$tmp/out.yaml" "name: quotaflow-cmp" "the ConfigMap added"
	[ "$(grep -c 'name: var-files' "$tmp/out.yaml")" -ge 3 ] ||
		{ echo "gitops: FAIL: var-files volume lost or not mounted in both"; fail=1; }
else
	echo "gitops: FAIL: the component does not build over a repo server"
	cat "$tmp/err"
	fail=1
fi
if ! kubectl patch --local -o yaml -f "$tmp/argocd/repo-server.yaml" --type strategic \
	--patch-file examples/gitops/argocd/component/repo-server-patch.yaml >"$tmp/p.yaml" 2>"$tmp/err"; then
	echo "gitops: FAIL: kubectl patch --local with the patch file"; cat "$tmp/err"; fail=1
else
	check "$tmp/p.yaml" "image: registry.example.com/platform/quotaflow" "kubectl patch adds the sidecar"
fi
[ $fail = 0 ] && echo "gitops: argocd example builds (kustomize, component over a repo server, kubectl patch)"
exit $fail
