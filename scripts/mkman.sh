#!/bin/sh
# The quotaflow(1) man page, made from the binary's own help texts so that
# it cannot drift from them (tests/e2e/man.sh): the top-level help, then
# every command's (and every subcommand's, for a command that has them)
# verbatim in a no-fill block, with the exit status and pointers to the
# documentation around them.  Deterministic: no date in the title line.
#
#   scripts/mkman.sh BINARY > quotaflow.1
set -eu
QF=${1:-build/quotaflow}
[ -x "$QF" ] || { echo "mkman: no $QF (run make first)" >&2; exit 2; }
version=$("$QF" --version | awk '{print $2}')

# roff-safe text: a backslash is \e, a minus \- (so options copy as
# typed), and a line starting with a dot or a quote is not a request
roff() {
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

# the indented "name  description" list under a help's heading line
names_under() {
	sed -n "/^$1/,/^\$/p" | awk 'NR > 1 && /^    [a-z]/ { print $1 }'
}

verbatim() {
	echo ".nf"
	roff
	echo ".fi"
}

cat <<EOF
.TH QUOTAFLOW 1 "" "quotaflow $version" "User Commands"
.SH NAME
quotaflow \\- GitOps toolchain for GPU quota on Kubernetes: compile, lint,
simulate and audit Kueue policy
.SH SYNOPSIS
.B quotaflow
[\\fB\\-\\-version\\fR] [\\fB\\-\\-help\\fR]
\\fIcommand\\fR [\\fIoptions\\fR]
.SH DESCRIPTION
quotaflow compiles tenant GPU budgets (a Pool and its Tenants: a committed
floor and a burst ceiling on a preferred flavour) into validated Kueue
manifests for Argo CD or Flux, lints policy and reports the meaning of a
change between two git revisions before merge, simulates Kueue admission
on a virtual clock (also served as a controller with a Kubernetes API
that kubectl talks to), and rebuilds who-waited, who-borrowed and
who-was-preempted evidence into SQLite with reports and tamper-evident
exports.
.PP
Every error names the file, line and column it is about, what is wrong
and what is expected.
.PP
EOF
"$QF" --help | verbatim
echo ".SH COMMANDS"
for c in $("$QF" --help | names_under commands:); do
	[ "$c" = help ] && continue
	echo ".SS \"quotaflow $c\""
	"$QF" help "$c" | verbatim
	for s in $("$QF" help "$c" | grep -q '<subcommand>' &&
		"$QF" help "$c" | sed -n '/^$/,$p' | names_under ''); do
		echo ".SS \"quotaflow $c $s\""
		"$QF" "$c" "$s" --help | verbatim
	done
done
cat <<'EOF'
.SH EXIT STATUS
.TP
.B 0
success: valid input, nothing at or above the failure threshold
.TP
.B 1
findings or invalid input (a lint finding, a spec or manifest that does
not validate, tampered evidence)
.TP
.B 2
a usage error or an internal error (an unreadable file, a database that
cannot be written)
.SH SEE ALSO
.BR kubectl (1),
.BR git (1),
.BR sqlite3 (1).
The documentation under /usr/share/doc/quotaflow (README.md, cli.md,
spec.md, translation.md, rules.md, simulate.md, runtime.md, controller.md,
audit.md, limits.md, performance.md) or docs/ in the source tree.
EOF
