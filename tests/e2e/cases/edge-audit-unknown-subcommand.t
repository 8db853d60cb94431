# A mistyped audit subcommand suggests the nearest one (exit 2)
args: audit expot --db x.db --out y
exit: 2
stderr-has: 'expot' is not an audit subcommand. Did you mean 'export'?
