# controller --sync-interval 10 (it meant 10 ms, polling git 100 times a
# second): refused, no database created
args: controller --db "$tmp/csu.db" --listen 127.0.0.1:0 --sync-interval 10
exit: 2
stderr-has: error: --sync-interval 10 has no unit
after-sh: test ! -e "$tmp/csu.db"
