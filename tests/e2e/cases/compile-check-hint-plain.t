# --check of a missing folder -o takes as given (a ".." through folders
# that exist) hints at it unchanged
setup-sh: rm -rf "$tmp/ck2" && mkdir -p "$tmp/ck2/t"
args: compile examples/tenants --check "$tmp/ck2/t/../out"
exit: 1
stderr-has: ck2/t/../out: error: missing output directory
stderr-has: ck2/t/../out
stderr-not: -o refuses
