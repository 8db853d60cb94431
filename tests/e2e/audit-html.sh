#!/bin/sh
# audit report --format html in a real browser: Debian's chromium renders
# the page headless; the screenshot must not be blank and the DOM must hold
# one row per tenant and both charts per tenant.  The page must need no
# network and no script.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2
if ! command -v chromium >/dev/null 2>&1; then
	echo "audit-html: FAIL: chromium missing (scripts/install-deps.sh test)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "audit-html: FAIL: $*"; exit 1; }
"$QF" simulate -f tests/fixtures/audit/cluster.yaml \
	--trace tests/fixtures/audit/trace.jsonl --events "$tmp/ev.jsonl" ||
	fail "simulate"
"$QF" audit ingest --db "$tmp/a.db" "$tmp/ev.jsonl" \
	tests/fixtures/audit/cluster.yaml >/dev/null 2>&1 || fail "ingest"
"$QF" audit report --db "$tmp/a.db" --format html -o "$tmp/r.html" ||
	fail "report"
grep -q '<script' "$tmp/r.html" && fail "the page has a script"
grep -Eq '(src|href)="https?:' "$tmp/r.html" && fail "the page fetches"
chrome() {
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=1280,1400 "$@" 2>/dev/null
}
chrome --screenshot="$tmp/shot.png" "file://$tmp/r.html" >/dev/null
[ -s "$tmp/shot.png" ] || fail "no screenshot"
# a blank page of this size compresses to about 8 KB (measured with
# chromium 120 here); the tables and charts take several times that
size=$(wc -c <"$tmp/shot.png")
[ "$size" -gt 30000 ] || fail "screenshot looks blank ($size bytes)"
chrome --dump-dom "file://$tmp/r.html" >"$tmp/dom.html"
for t in team-a team-b team-c team-d; do
	grep -q "<tr class=\"tenant\" data-tenant=\"$t\">" "$tmp/dom.html" ||
		fail "tenant row $t missing from the rendered DOM"
done
[ "$(grep -o '<svg class="waits"' "$tmp/dom.html" | wc -l)" -eq 4 ] ||
	fail "expected 4 wait charts"
[ "$(grep -o '<svg class="usage"' "$tmp/dom.html" | wc -l)" -eq 4 ] ||
	fail "expected 4 usage charts"
grep -q '<polyline' "$tmp/dom.html" || fail "no usage lines drawn"
grep -q 'class="caption"' "$tmp/dom.html" || fail "charts have no caption"
# the page fits a 1280-pixel window: a wide table scrolls in its own box
# rather than widening the page (a copy of the page, with a script that
# only this test adds, reports the width chromium laid it out at)
sed 's|</body>|<script>document.body.setAttribute("data-page-width",document.documentElement.scrollWidth)</script></body>|' \
	"$tmp/r.html" >"$tmp/measure.html"
chrome --dump-dom "file://$tmp/measure.html" >"$tmp/measure-dom.html"
width=$(sed -n 's/.*data-page-width="\([0-9]*\)".*/\1/p' "$tmp/measure-dom.html")
[ -n "$width" ] || fail "could not measure the page's width"
[ "$width" -le 1280 ] || fail "the page is $width pixels wide in a 1280-pixel window"
echo "audit-html: report rendered by chromium ($size-byte screenshot, $width pixels wide), 4 tenants"
