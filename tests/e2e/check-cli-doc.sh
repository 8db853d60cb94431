#!/bin/sh
# Every command in `quotaflow help` is listed in sorted order, has --help,
# and docs/cli.md holds exactly its --help text in a code block under a
# "## <command>" heading (git's t0012-help idea).
QF=${QF:-build/quotaflow}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$QF" help | sed -n 's/^    \([a-z][a-z-]*\) .*/\1/p' >"$tmp/cmds"
sort -c "$tmp/cmds" || { echo "cli-doc: command table not sorted"; exit 1; }
[ "$(sort -u "$tmp/cmds" | wc -l)" -eq "$(wc -l <"$tmp/cmds")" ] ||
	{ echo "cli-doc: duplicate commands"; exit 1; }
bad=0
while read -r c; do
	[ "$c" = help ] && continue
	if ! "$QF" "$c" --help >"$tmp/help" 2>&1; then
		echo "cli-doc: '$c --help' fails"; bad=1; continue
	fi
	awk -v h="## $c" '$0==h{s=1;next} s&&/^```$/{if(inb){exit}inb=1;next} s&&inb' \
		docs/cli.md >"$tmp/doc"
	if ! cmp -s "$tmp/help" "$tmp/doc"; then
		echo "cli-doc: docs/cli.md section '## $c' differs from '$c --help':"
		diff -u "$tmp/doc" "$tmp/help" | head -20
		bad=1
	fi
done <"$tmp/cmds"
# audit's subcommands: one "## audit <sub>" section each
"$QF" audit --help | sed -n 's/^    \([a-z][a-z-]*\) .*/\1/p' >"$tmp/subs"
while read -r s; do
	"$QF" audit "$s" --help >"$tmp/help" 2>&1 || {
		echo "cli-doc: 'audit $s --help' fails"; bad=1; continue; }
	awk -v h="## audit $s" '$0==h{s=1;next} s&&/^```$/{if(inb){exit}inb=1;next} s&&inb' \
		docs/cli.md >"$tmp/doc"
	if ! cmp -s "$tmp/help" "$tmp/doc"; then
		echo "cli-doc: docs/cli.md section '## audit $s' differs:"
		diff -u "$tmp/doc" "$tmp/help" | head -20
		bad=1
	fi
done <"$tmp/subs"
[ $bad = 0 ] && echo "cli-doc: $(wc -l <"$tmp/cmds") commands documented"
exit $bad
