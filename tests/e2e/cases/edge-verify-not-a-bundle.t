# audit verify of a folder that is no bundle says so once, instead of
# listing every file in it as tampered (exit 1)
setup-sh: mkdir -p "$tmp/vnb/notes" && echo hi >"$tmp/vnb/notes/a.txt"
args: audit verify "$tmp/vnb/notes"
exit: 1
stderr-has: /vnb/notes: error: not an evidence bundle: it holds neither manifest.json nor statement.intoto.json
stderr-not: a.txt
