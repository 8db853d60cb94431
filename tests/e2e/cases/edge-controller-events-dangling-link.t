# controller --events naming a link to a missing file creates nothing
# where it points (exit 2)
setup-sh: mkdir -p "$tmp/ced" && ln -sf "$tmp/ced/elsewhere.jsonl" "$tmp/ced/ev.jsonl"
args: controller --db "$tmp/ced/c.db" --listen 127.0.0.1:0 --events "$tmp/ced/ev.jsonl"
exit: 2
stderr-has: /ced/ev.jsonl: error: --events: is a symbolic link to a missing file
after-sh: test ! -e "$tmp/ced/elsewhere.jsonl"
