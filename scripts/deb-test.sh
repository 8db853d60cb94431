#!/bin/sh
# make deb-test: install the .deb of `make deb` into a clean Debian bookworm
# root and run quotaflow there, so the package's Depends are proven, not
# assumed.  debootstrap builds the root in a temp dir from Debian's own
# packages (deb.debian.org, or DEB_MIRROR), apt installs the .deb and
# resolves its Depends, and compile, validate and simulate run on the
# bundled examples inside the root (chroot).  Needs root and the network
# (Debian's archive); not part of `make test` for that reason.
#
#   scripts/deb-test.sh build/quotaflow_VERSION_ARCH.deb
set -eu
deb=$1
mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
cd "$(dirname "$0")/.."
[ -f "$deb" ] || { echo "deb-test: no $deb (run make deb)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "deb-test: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "deb-test: needs debootstrap (scripts/install-deps.sh deb)" >&2; exit 2; }

work=$(mktemp -d /tmp/qf-deb-test-XXXXXX)
root=$work/root
cleanup() {
	# never remove the tree while something is still mounted in it
	for m in "$root/proc" "$root/dev"; do
		if mountpoint -q "$m" 2>/dev/null; then umount -l "$m" || exit 1; fi
	done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "deb-test: debootstrap bookworm (minbase) from $mirror into $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
	tail -20 "$work/debootstrap.log"
	exit 1
}
mount -t proc proc "$root/proc"
mkdir -p "$root/qf"
cp "$deb" "$root/qf/quotaflow.deb"
cp -r examples "$root/qf/examples"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

echo "deb-test: apt-get install ./quotaflow.deb (resolving its Depends)"
in_root apt-get update -q >"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; exit 1; }
in_root apt-get install -y -q --no-install-recommends /qf/quotaflow.deb \
	>>"$work/apt.log" 2>&1 || { tail -20 "$work/apt.log"; exit 1; }
in_root dpkg-query -W -f='deb-test: installed ${Package} ${Version}\n' quotaflow

# every library the binary needs resolves inside the clean root
if in_root ldd /usr/bin/quotaflow | grep 'not found'; then
	echo "deb-test: FAIL: a library is missing from the Depends" >&2
	exit 1
fi

fail=0
step() {
	printf 'deb-test: %s ... ' "$*"
	if in_root sh -c "cd /qf && $*" >"$work/step.log" 2>&1; then
		echo ok
	else
		echo FAIL
		tail -20 "$work/step.log"
		fail=1
	fi
}
step quotaflow --version
step quotaflow validate examples/tenants examples/simulate
step quotaflow compile examples/tenants -o /qf/deploy
step quotaflow compile examples/tenants --check /qf/deploy
step quotaflow validate /qf/deploy
step quotaflow simulate -f examples/simulate --trace examples/simulate/trace.jsonl --events /dev/null
step quotaflow simulate -f /qf/deploy -f examples/demo/namespaces.yaml --trace examples/demo/trace.jsonl --summary /qf/summary.json
step test -s /qf/summary.json

# docs/gitops/flux.md tells CI which packages to install: the same list
for p in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*//; s/ //g'); do
	[ "$p" = libc6 ] && continue
	grep -q "$p" docs/gitops/flux.md || {
		echo "deb-test: docs/gitops/flux.md does not install $p" >&2
		fail=1
	}
done
[ $fail = 0 ] && echo "deb-test: ok"
exit $fail
