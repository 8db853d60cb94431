# --source-commit becomes an annotation of every object: a control
# character (an escape sequence, a newline) is a usage error saying where
# and what is expected; it was written into every object, escaped
args: compile examples/tenants --source-commit "$(printf 'abc\033[31m\ndef')"
exit: 2
stderr-has: error: compile: --source-commit "abc\x1b[31m\ndef" has a control character (\x1b) at byte 4: expected printable UTF-8 text such as a commit id (git rev-parse HEAD), as it becomes the annotation quotaflow.dev/source-commit of every object
stderr-has: usage: quotaflow compile
stdout-not: source-commit
