#!/bin/sh
# Installs the Debian packages a make target needs, only those that are
# missing; runs `apt-get update` only when an install is needed.  Idempotent:
# a second run on a ready machine does nothing and prints nothing.
#
#   install-deps.sh build    compile quotaflow (make)
#   install-deps.sh demo     build + git, for the demo's pull request in a
#                            throw-away repository (make demo)
#   install-deps.sh test     build + cmocka and the real peers the tests drive
#                            (kubectl, promtool, chromium, sqlite3),
#                            python3, which reads JSON in some controller
#                            suites, and groff, which checks the man page
#   install-deps.sh check    test + clang and its sanitizer runtime
#                            (make check, make fuzz)
#   install-deps.sh lint     build + clang-format, clang-tidy, cppcheck and
#                            bear (make lint, make format-check)
#   install-deps.sh deb      build + dpkg-dev (dpkg-shlibdeps) and debootstrap
#                            (make deb, make deb-test)
#   install-deps.sh bench    build + the peers the benchmarks measure beside
#                            us (etcd, kube-apiserver's store; make bench)
#   install-deps.sh all      everything (the default)
#   --dry-run GROUP          install nothing; exit 1 when something is missing
set -eu

dry=""
if [ "${1:-}" = "--dry-run" ]; then
	dry=yes
	shift
fi

BUILD_PKGS="build-essential pkg-config libyaml-dev libjansson-dev libgit2-dev \
libsqlite3-dev libpcre2-dev libssl-dev libmicrohttpd-dev"
TEST_PKGS="libcmocka-dev prometheus chromium sqlite3 git python3 groff-base"
CHECK_PKGS="clang libclang-rt-dev"
LINT_PKGS="clang-format clang-tidy cppcheck bear"
DEB_PKGS="dpkg-dev debootstrap"
BENCH_PKGS="etcd-server etcd-client"

case "${1:-all}" in
build) PKGS="$BUILD_PKGS" ;;
demo) PKGS="$BUILD_PKGS git" ;;
test) PKGS="$BUILD_PKGS $TEST_PKGS" ;;
check) PKGS="$BUILD_PKGS $TEST_PKGS $CHECK_PKGS" ;;
lint) PKGS="$BUILD_PKGS $LINT_PKGS" ;;
deb) PKGS="$BUILD_PKGS $DEB_PKGS" ;;
bench) PKGS="$BUILD_PKGS $BENCH_PKGS" ;;
all) PKGS="$BUILD_PKGS $TEST_PKGS $CHECK_PKGS $LINT_PKGS $DEB_PKGS $BENCH_PKGS" ;;
*)
	echo "install-deps: unknown group '$1' (expected build, demo, test, check, lint, deb, bench or all)" >&2
	exit 2
	;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
# kubectl: the machine image ships one; Debian's kubernetes-client otherwise.
case "${1:-all}" in
build | demo | deb | bench) ;;
*) command -v kubectl >/dev/null 2>&1 || missing="$missing kubernetes-client" ;;
esac
[ -z "$missing" ] && exit 0
[ -n "$dry" ] && exit 1

echo "install-deps: installing:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "install-deps: need root or sudo to install:$missing" >&2
		exit 2
	}
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
