# simulate: a Kueue Configuration with a field Kueue does not know is an error at its line, as Kueue decodes its Configuration strictly and would not start (a misspelt multikueue gets a did-you-mean); it used to be ignored without a word.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmultikueue: {gcInterval: 1m}\nhealth: {}\n' > "$tmp/cfg-unknown.yaml"
args: simulate -f examples/simulate/cluster.yaml -f "$tmp/cfg-unknown.yaml"
exit: 1
stderr-has: cfg-unknown.yaml:3:13: error: unknown field "multikueue": Kueue decodes its Configuration strictly and would not start (did you mean multiKueue?) [QF510]
stderr-not: health
