# Issue 13: --format json keeps a diagnostic whose file name is not UTF-8
# (its bad byte becomes U+FFFD, docs/limits.md) instead of dropping the
# name; the control characters of the message stay JSON-escaped.
setup-sh: mkdir -p "$tmp/u8" && cp tests/fixtures/validate/hostile/forged-annotation.yaml "$tmp/u8/bad$(printf '\377').yaml"
args: validate --format json "$tmp/u8"
exit: 1
stdout-has: /u8/bad�.yaml",
stdout-has: "message": "Invalid value: \"x\n::error file=README.md,line=1::forged\u001B[2K\": a lowercase RFC 1123 subdomain
