# every start-up problem is reported in one run, each naming its option
setup-sh: mkdir -p "$tmp/csa"
args: controller --db "$tmp/csa/c.db" --listen nope --token-file "$tmp/csa/t" --manifests "$tmp/csa/m"
exit: 2
stderr-has: --listen 'nope' is not HOST:PORT
stderr-has: hint: --token-file wants a readable file
stderr-has: error: --manifests: No such file or directory
after-sh: test -z "$(ls -A "$tmp/csa")"
