# An unknown option is a usage error (exit 2) with the nearest option and
# the help to read, which for an audit subcommand is 'audit NAME --help'
args: audit ingest --dbb x.db -
exit: 2
stderr-has: quotaflow: error: unknown option '--dbb'
stderr-has: hint: did you mean '--db'? see 'audit ingest --help'
