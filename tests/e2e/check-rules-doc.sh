#!/bin/sh
# Every rule id the sources can emit (a "QFnnn" string literal in core/,
# compiler/, runtime/, audit/ or quotaflow.c) is documented in docs/rules.md
# as a "- QFnnn:" entry, and every documented id occurs in the sources.
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find core compiler runtime audit quotaflow.c -name '*.[ch]' 2>/dev/null |
	xargs grep -ohE '"QF[0-9]{3}"' | tr -d '"' | sort -u >"$tmp/code"
sed -n 's/^- \(QF[0-9][0-9][0-9]\):.*/\1/p' docs/rules.md | sort >"$tmp/doc"
bad=0
if [ "$(uniq -d "$tmp/doc")" ]; then
	echo "rules-doc: documented twice: $(uniq -d "$tmp/doc" | tr '\n' ' ')"
	bad=1
fi
sort -u "$tmp/doc" -o "$tmp/doc"
for id in $(comm -23 "$tmp/code" "$tmp/doc"); do
	echo "rules-doc: $id is emitted but not in docs/rules.md"; bad=1
done
for id in $(comm -13 "$tmp/code" "$tmp/doc"); do
	echo "rules-doc: $id is in docs/rules.md but nothing emits it"; bad=1
done
[ "$(wc -l <"$tmp/code")" -gt 50 ] || { echo "rules-doc: found too few ids"; bad=1; }
[ $bad = 0 ] && echo "rules-doc: $(wc -l <"$tmp/code") rule ids documented"
exit $bad
