# Helpers for the controller suites: start a controller on a free
# loopback port (port 0, read back from its log), drive it with the
# machine's kubectl, and always stop it.  Sourced by tests/controller/*.sh.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EX=$ROOT/tests/controller/fixtures
tmp=$(mktemp -d)
HOME=$tmp KUBECACHEDIR=$tmp/kcache
export HOME KUBECACHEDIR
pids=""
pass=0
fail=0
cleanup() {
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# start NAME [controller options...]: sets PORT, PID, S (kubectl --server)
start() {
	name=$1
	shift
	# made here: the background shell may open it after the first read
	: >"$tmp/$name.log"
	"$QF" controller --listen 127.0.0.1:0 "$@" 2>"$tmp/$name.log" &
	PID=$!
	pids="$pids $PID"
	PORT=""
	i=0
	while [ $i -lt 100 ] && [ -z "$PORT" ]; do
		PORT=$(sed -n 's/.*listening on .* port \([0-9]*\).*/\1/p' \
			"$tmp/$name.log" | head -1)
		[ -n "$PORT" ] && break
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.05
		i=$((i + 1))
	done
	[ -n "$PORT" ] || { echo "controller did not start:"; cat "$tmp/$name.log"; return 1; }
	S="--server http://127.0.0.1:$PORT"
}

# stop: SIGTERM, wait (bounded), return the exit status
stop() {
	kill -TERM "$PID" 2>/dev/null
	i=0
	while kill -0 "$PID" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if kill -0 "$PID" 2>/dev/null; then
		kill -9 "$PID"
		echo "controller did not stop on SIGTERM"
		return 99
	fi
	wait "$PID"
	st=$?
	[ $st = 0 ] || { echo "controller $name exited $st:"; tail -40 "$tmp/$name.log"; }
	return $st
}

# make_cert: a self-signed certificate for 127.0.0.1 ($tmp/cert.pem,
# key $tmp/key.pem), for --tls-cert and kubectl --certificate-authority
make_cert() {
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" \
		-out "$tmp/cert.pem" -days 1 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 ||
		bad "openssl could not make a certificate"
}

# g GIT-ARGS...: git in the policy work tree $tmp/work, quietly
g() { git -C "$tmp/work" -c user.email=t@example.com -c user.name=t "$@" >/dev/null 2>&1; }

# git_policy: a new work tree $tmp/work (branch main) holding
# fixtures/setup.yaml under policy/, nothing committed yet; the suite is
# skipped, and said so, without git
git_policy() {
	command -v git >/dev/null 2>&1 || { echo "controller/$suite: git missing: skipped"; exit 0; }
	git init -q -b main "$tmp/work" && mkdir -p "$tmp/work/policy"
	cp "$EX/setup.yaml" "$tmp/work/policy/"
}

k() {
	timeout 30 kubectl $S "$@"
}

ok() {
	pass=$((pass + 1))
}

bad() {
	fail=$((fail + 1))
	echo "FAIL $suite: $*"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# expect_has WHAT TEXT NEEDLE
expect_has() {
	case "$2" in
	*"$3"*) ok ;;
	*) bad "$1: '$3' not in: $(printf '%s' "$2" | head -5)" ;;
	esac
}

# wait_for WHAT CMD WANT [TRIES]: poll (TRIES times 50 ms, default 100)
# until CMD prints WANT
wait_for() {
	i=0
	while [ $i -lt "${4:-100}" ]; do
		got=$(eval "$2" 2>&1)
		[ "$got" = "$3" ] && { ok; return 0; }
		sleep 0.05
		i=$((i + 1))
	done
	bad "$1: got '$got', want '$3'"
}

# wl_create NAME QUEUE CPUS [FINALIZER]: a v1beta2 Workload of one pod
# in default
wl_create() {
	cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create $1"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: $1, namespace: default${4:+, finalizers: ["$4"]}}
spec:
  queueName: $2
  podSets:
  - name: main
    count: 1
    template:
      spec:
        restartPolicy: Never
        containers: [{name: c, image: busybox, resources: {requests: {cpu: "$3"}}}]
YAML
}

# job_create NAME QUEUE CPUS [FINALIZER]: a Job of one pod in default,
# queued in QUEUE
job_create() {
	cat <<YAML | k create -f - >/dev/null 2>&1 || bad "create job $1"
apiVersion: batch/v1
kind: Job
metadata:
  name: $1
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: $2}
${4:+  finalizers: ["$4"]}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, resources: {requests: {cpu: "$3"}}}]
YAML
}

# meta KIND NAME: "T|" when a deletionTimestamp is set, then the
# finalizers
meta() {
	k get "$1" "$2" -o jsonpath='{.metadata.deletionTimestamp}|{.metadata.finalizers}' 2>&1 | sed 's/^[0-9TZ:-]*|/T|/'
}
# gone KIND NAME: "there" or "gone"
gone() {
	k get "$1" "$2" -o name >/dev/null 2>&1 && echo there || echo gone
}

# wl_of JOB: the name of the Workload Job JOB owns
wl_of() {
	k get workloads -o jsonpath="{.items[?(@.metadata.ownerReferences[0].name==\"$1\")].metadata.name}"
}

finish() {
	echo "controller/$suite: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
