#!/bin/sh
# kubectl auth can-i and kubectl auth whoami: the controller serves
# authorization.k8s.io/v1 SelfSubjectAccessReview and
# SelfSubjectRulesReview and authentication.k8s.io/v1 SelfSubjectReview
# (create only; kubectl sends them as protobuf) and answers for its
# authorization: whoever gets in may do everything served, nothing else.
suite=auth
. "$(dirname "$0")/lib.sh"

start open --db "$tmp/a.db" || exit 1
expect_eq "can create jobs" "$(k auth can-i create jobs 2>&1)" "yes"
out=$(k auth can-i create pods 2>/dev/null)
expect_eq "pods exit" "$?" "1"
expect_eq "cannot create pods" "$out" "no - the quotaflow controller does not serve pods"
expect_eq "workloads status" "$(k auth can-i patch workloads.kueue.x-k8s.io --subresource=status 2>&1)" "yes"
expect_eq "jobs status create" "$(k auth can-i create jobs --subresource=status 2>&1)" 'no - the quotaflow controller does not serve the verb "create" on jobs.batch/status'
expect_eq "escalate" "$(k auth can-i escalate clusterqueues 2>/dev/null)" 'no - the quotaflow controller does not serve the verb "escalate" on clusterqueues.kueue.x-k8s.io'
expect_eq "every verb" "$(k auth can-i '*' jobs 2>&1)" 'no - the quotaflow controller does not serve every verb ("*") on jobs.batch'
expect_eq "metrics" "$(k auth can-i get /metrics 2>&1)" "yes"
expect_eq "discovery path" "$(k auth can-i get /apis/batch/v1 2>&1)" "yes"
expect_eq "post metrics" "$(k auth can-i post /metrics 2>&1)" 'no - the quotaflow controller does not serve the verb "post" on /metrics'
expect_eq "reviews" "$(k auth can-i create selfsubjectaccessreviews.authorization.k8s.io 2>/dev/null)" "yes"
list=$(k auth can-i --list 2>&1)
expect_has "list jobs" "$list" "jobs.batch "
expect_has "list workloads status" "$list" "workloads.kueue.x-k8s.io/status"
expect_has "list metrics" "$list" "[/metrics]"
expect_eq "list pods" "$(printf '%s\n' "$list" | grep -c '^pods')" "0"
# every served resource is listed, with exactly its discovery verbs
expect_eq "list rows" "$(printf '%s\n' "$list" | grep -c '\[create delete deletecollection get list patch update watch\]')" "10"
who=$(k auth whoami -o jsonpath='{.status.userInfo.username} {.status.userInfo.groups}' 2>&1)
expect_eq "anonymous" "$who" 'system:anonymous ["system:unauthenticated"]'
out=$(k get --raw /apis/authorization.k8s.io/v1 2>&1)
expect_has "discovery" "$out" '"name":"selfsubjectaccessreviews","singularName":"selfsubjectaccessreview","namespaced":false,"kind":"SelfSubjectAccessReview","verbs":["create"]'
expect_has "group list" "$(k get --raw /apis 2>&1)" '"name":"authentication.k8s.io"'
out=$(k get --raw /apis/authorization.k8s.io/v1/selfsubjectaccessreviews 2>&1)
expect_has "create only" "$out" "MethodNotAllowed"
# a JSON body works too, and one that asks about nothing is 422
printf '{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"watch","group":"kueue.x-k8s.io","resource":"localqueues"}}}' >"$tmp/ssar.json"
out=$(k create --raw /apis/authorization.k8s.io/v1/selfsubjectaccessreviews -f "$tmp/ssar.json" 2>&1)
expect_has "json review" "$out" '"status":{"allowed":true'
printf '{"spec":{}}' >"$tmp/empty.json"
out=$(k create --raw /apis/authorization.k8s.io/v1/selfsubjectaccessreviews -f "$tmp/empty.json" 2>&1)
# a 422 with its cause in details, as kubectl prints it against kube
expect_eq "empty review" "$out" 'The SelfSubjectAccessReview "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'
expect_eq "nothing stored" "$(k get events -A -o name 2>&1)" ""
stop
expect_eq "stop open" "$?" "0"

# kubectl sends a token over HTTPS only
printf 's3cret\n' >"$tmp/token"
make_cert
start token --db "$tmp/t.db" --token-file "$tmp/token" \
	--tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" || exit 1
S="--server https://127.0.0.1:$PORT --certificate-authority $tmp/cert.pem"
who=$(k --token s3cret auth whoami -o jsonpath='{.status.userInfo.username} {.status.userInfo.groups}' 2>&1)
expect_eq "bearer" "$who" 'quotaflow:token-bearer ["system:authenticated"]'
expect_eq "bearer can" "$(k --token s3cret auth can-i delete namespaces 2>/dev/null)" "yes"
out=$(k --token wrong auth can-i create jobs 2>&1)
expect_has "wrong token" "$out" "Unauthorized"
stop
expect_eq "stop token" "$?" "0"
finish
