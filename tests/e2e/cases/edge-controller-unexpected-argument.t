# a stray argument is named in the usage error
args: controller --db "$tmp/cua.db" serve
exit: 2
stderr-has: controller: unexpected argument 'serve'
