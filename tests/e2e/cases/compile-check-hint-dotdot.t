# --check of a missing folder hints at the -o that makes it; for a ".."
# after a folder that does not exist, which -o refuses, it named that same
# path: the hint is now the folder written without the detour, and running
# it works
setup-sh: rm -rf "$tmp/ck" && mkdir -p "$tmp/ck/t"
args: compile examples/tenants --check "$tmp/ck/t/sub/../../out"
exit: 1
stderr-has: t/sub/../../out: error: missing output directory (compile would write 34 files) [QF318]
stderr-has: ck/out (-o refuses
stderr-has: t/sub/../../out: its ".." goes back out of a folder that does not exist)
after-sh: p=$(sed -n 's/.*hint: run quotaflow compile -o \(.*\) (-o refuses.*/\1/p' "$tmp/err") && test "$p" = "$tmp/ck/out" && "$QF" compile examples/tenants -o "$p" >/dev/null 2>&1 && test -f "$tmp/ck/out/.quotaflow-manifest" && test ! -e "$tmp/ck/t/sub"
