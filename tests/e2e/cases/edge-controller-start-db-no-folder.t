# controller --db in a folder that does not exist: exit 2 naming --db
args: controller --db "$tmp/csd-missing/c.db" --listen 127.0.0.1:0
exit: 2
stderr-has: /csd-missing/c.db: error: --db: the folder
stderr-has: /csd-missing does not exist [QF002]
stderr-has: hint: create it first, or give a path in a folder that exists
