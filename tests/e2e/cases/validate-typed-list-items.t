# The items of a typed list (what the API server returns, `kubectl get
# --raw`) carry no apiVersion or kind: they are the list's, less "List", as
# kubectl reads them; each item was QF101 'apiVersion is missing'.  A finding
# about them points at the list's apiVersion.
setup-sh: mkdir -p "$tmp/typedlist" && printf '{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavorList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a"},"spec":{}},{"metadata":{"name":"Bad_Name"}}]}\n' >"$tmp/typedlist/raw.json" && printf 'apiVersion: kueue.x-k8s.io/v1beta9\nkind: CohortList\nitems:\n- metadata:\n    name: c\n' >"$tmp/typedlist/v9.yaml"
args: validate "$tmp/typedlist"
exit: 1
stdout-has: 3 objects, 1 valid, 2 invalid, 0 skipped
stderr-has: raw.json:1:168: error: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain
stderr-has: v9.yaml:1:13: error: Kueue serves no version "v1beta9" [QF117]
stderr-not: [QF101]
