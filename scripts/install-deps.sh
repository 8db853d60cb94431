#!/bin/sh
# Installs the Debian packages that building, testing and fuzzing Quotaflow need,
# only when one is missing; runs `apt-get update` only when an install is needed.
# Idempotent: a second run on a ready machine does nothing and prints nothing.
set -eu

PKGS="build-essential pkg-config libyaml-dev libjansson-dev libgit2-dev \
libsqlite3-dev libpcre2-dev libcmocka-dev libssl-dev clang libclang-rt-dev"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

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
