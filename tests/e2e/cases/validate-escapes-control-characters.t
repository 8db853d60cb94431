# Issue 13: a name holding a newline and "::error ...::" cannot forge a
# GitHub Actions annotation, nor an ESC sequence rewrite the terminal line:
# control characters in diagnostics are escaped.
args: validate tests/fixtures/validate/hostile/forged-annotation.yaml
exit: 1
stderr-has: forged-annotation.yaml:6:9: error: Invalid value: "x\n::error file=README.md,line=1::forged\x1b[2K": a lowercase RFC 1123 subdomain
