#!/bin/sh
# make deb: a Debian package of build/quotaflow, built with dpkg-deb.  The
# Depends line is derived, not guessed: dpkg-shlibdeps maps every shared
# library the binary links (its NEEDED entries) to the package that ships
# it and the minimum version its symbols need, exactly as debhelper does.
# On bookworm that gives libc6, libyaml-0-2, libjansson4, libgit2-1.5,
# libsqlite3-0, libpcre2-8-0, libssl3 and libmicrohttpd12.
#
#   scripts/mkdeb.sh BINARY OUTDIR     prints the path of the .deb it wrote
set -eu
bin=${1:-build/quotaflow}
out=${2:-build}
cd "$(dirname "$0")/.."
[ -x "$bin" ] || { echo "mkdeb: no $bin (run make first)" >&2; exit 2; }
# Debian orders 0.1.0~dev before 0.1.0, as a pre-release should be
version=${VERSION:-$("$bin" --version | awk '{print $2}' | tr - '~')}
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

root=$work/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/quotaflow"
install -m 755 "$bin" "$root/usr/bin/quotaflow"
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$root/usr/bin/quotaflow"
install -m 644 README.md "$root/usr/share/doc/quotaflow/README.md"
# Debian policy 12.1: man pages compressed with gzip -9n
install -d "$root/usr/share/man/man1"
sh scripts/mkman.sh "$bin" | gzip -9n >"$root/usr/share/man/man1/quotaflow.1.gz"
chmod 644 "$root/usr/share/man/man1/quotaflow.1.gz"
for f in docs/*.md; do
	install -m 644 "$f" "$root/usr/share/doc/quotaflow/$(basename "$f")"
done
# the pictures the documents show (docs/img/...)
install -d "$root/usr/share/doc/quotaflow/img"
for f in docs/img/*; do
	install -m 644 "$f" "$root/usr/share/doc/quotaflow/img/$(basename "$f")"
done

# dpkg-shlibdeps wants a source package around it: give it a minimal one
mkdir -p "$work/src/debian"
printf 'Source: quotaflow\n\nPackage: quotaflow\nArchitecture: any\n' \
	>"$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$root/usr/bin/quotaflow" |
	sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "mkdeb: dpkg-shlibdeps found no Depends" >&2; exit 1; }

size=$(du -sk "$root/usr" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: quotaflow
Version: $version
Architecture: $arch
Maintainer: Quotaflow maintainers <quotaflow@example.com>
Installed-Size: $size
Depends: $depends
Section: admin
Priority: optional
Description: GPU quota policy compiler, linter, Kueue simulator and audit tool
 quotaflow compiles tenant GPU budgets (a Pool and its Tenants) into
 validated Kueue manifests, validates Kueue manifests against Kueue's
 schemas and webhook rules, lints policy and diffs it between git
 revisions before merge, simulates Kueue admission on a virtual clock
 (also as a controller that kubectl talks to), and rebuilds audit
 evidence of who waited, borrowed and was preempted into SQLite.
EOF
deb=$out/quotaflow_${version}_${arch}.deb
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
