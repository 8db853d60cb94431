#!/bin/sh
# The man page (scripts/mkman.sh, installed by make install and make deb):
# made from the binary's help texts, it has a section for every command
# the top-level help lists (and every subcommand of audit), it is
# deterministic, and groff formats it without a warning.
QF=${QF:-build/quotaflow}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "man: FAIL: $*"; exit 1; }
command -v groff >/dev/null 2>&1 ||
	fail "groff missing (scripts/install-deps.sh test installs groff-base)"
sh scripts/mkman.sh "$QF" >"$tmp/a.1" || fail "mkman exited $?"
sh scripts/mkman.sh "$QF" >"$tmp/b.1" || fail "mkman exited $?"
cmp -s "$tmp/a.1" "$tmp/b.1" || fail "two runs differ"
n=0
for c in $("$QF" --help | sed -n '/^commands:/,/^$/p' |
	awk 'NR > 1 && /^    [a-z]/ { print $1 }'); do
	[ "$c" = help ] && continue
	grep -qx ".SS \"quotaflow $c\"" "$tmp/a.1" || fail "no section for $c"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n commands found in --help"
for s in export ingest query report verify; do
	grep -qx ".SS \"quotaflow audit $s\"" "$tmp/a.1" ||
		fail "no section for audit $s"
done
# a help text's own lines, as written: options copy as typed
grep -q '^\\-\\-crds DIR\|\\-\\-crds DIR' "$tmp/a.1" || fail "validate's --crds is not in the page"
groff -man -Tutf8 -ww -z "$tmp/a.1" 2>"$tmp/warn" || fail "groff failed"
[ ! -s "$tmp/warn" ] || fail "groff warns: $(head -3 "$tmp/warn")"
groff -man -Tascii -P-cbou "$tmp/a.1" 2>/dev/null | grep -q 'EXIT STATUS' ||
	fail "the formatted page has no EXIT STATUS"
echo "man: quotaflow.1 has $n commands and audit's subcommands; groff formats it without a warning"
