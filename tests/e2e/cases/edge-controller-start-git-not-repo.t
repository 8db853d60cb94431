# controller --git-repo naming a folder that is not a repository: exit 2
# at start (it used to serve on, logging a sync error every interval)
setup-sh: mkdir -p "$tmp/csg/notrepo"
args: controller --db "$tmp/csg/c.db" --listen 127.0.0.1:0 --git-repo "$tmp/csg/notrepo" --git-ref main --git-path tenants
exit: 2
stderr-has: error: --git-repo: cannot open
stderr-has: hint: give the folder of a git repository
after-sh: test ! -e "$tmp/csg/c.db"
