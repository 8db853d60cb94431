# controller --events in a folder that does not exist: exit 2 naming
# --events (it was exit 1), and no database created
setup-sh: mkdir -p "$tmp/csk"
args: controller --db "$tmp/csk/c.db" --listen 127.0.0.1:0 --events "$tmp/csk/nope/e.jsonl"
exit: 2
stderr-has: /csk/nope/e.jsonl: error: --events: the folder
after-sh: test -z "$(ls -A "$tmp/csk")"
