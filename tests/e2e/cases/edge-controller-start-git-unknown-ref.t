# controller --git-ref naming nothing in the repository: exit 2 at start
setup-sh: mkdir -p "$tmp/csr" && git init -q "$tmp/csr/r" && git -C "$tmp/csr/r" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
args: controller --db "$tmp/csr/c.db" --listen 127.0.0.1:0 --git-repo "$tmp/csr/r" --git-ref no-such-branch --git-path tenants
exit: 2
stderr-has: error: cannot resolve --git-ref no-such-branch
stderr-has: hint: give a branch, tag or commit of
after-sh: test ! -e "$tmp/csr/c.db"
