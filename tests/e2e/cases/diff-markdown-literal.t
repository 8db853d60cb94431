# the pull-request comment of a side that does not compile shows the
# input's text (an unknown key here) as code, never as Markdown: it was
# rendered as an image, a mention and broken code spans under the bot's name,
# and a key's escape sequence reached the terminal raw
setup-sh: rm -rf "$tmp/dml" && mkdir -p "$tmp/dml" && cp -r examples/tenants "$tmp/dml/a" && cp -r examples/tenants "$tmp/dml/b" && cp tests/fixtures/diff/markdown-key.yaml "$tmp/dml/b/"
args: diff "$tmp/dml/a" "$tmp/dml/b" --format markdown
exit: 1
stdout-has: /b/markdown-key.yaml:11:3` ```unknown field "![ok](https://e.invalid/p.png) @acme/admins ``x``"``` (QF301)
stdout-has: (2 errors), so there is nothing to compare
stdout-has: :12:3` `unknown field "\x1b]0;pwned\x07"` (QF301)
after-sh: ! grep -q "$(printf '\033')" "$tmp/out"
