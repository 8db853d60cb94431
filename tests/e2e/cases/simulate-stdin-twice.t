# Standard input can be read once: -f - with --submit - is a usage error
# (the --submit read nothing and was reported as an empty input).
args: simulate -f - --submit -
stdin: tests/controller/fixtures/setup.yaml
exit: 2
stderr-has: quotaflow: error: simulate: standard input (-) can be read once, but -f and --submit both name it
