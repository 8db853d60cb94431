# controller --db in a folder that does not exist: exit 2 naming --db
args: controller --db "$tmp/csd-missing/c.db" --listen 127.0.0.1:0
exit: 2
stderr-has: error: --db: the folder
stderr-has: does not exist; the controller creates the file, not its folder [QF560]
