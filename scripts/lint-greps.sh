#!/bin/sh
# The three structural checks of `make lint`: every header compiles alone,
# no sideways includes between parts, and banned.h is every .c file's last
# include.
CC=${CC:-cc}
bad=0
for h in $(git ls-files 'core/*.h' 'compiler/*.h' 'runtime/*.h' 'audit/*.h'); do
	printf '#include "%s"\n' "$h" |
		$CC -std=c11 -D_POSIX_C_SOURCE=200809L -I. $(pkg-config --cflags jansson yaml-0.1) \
			-fsyntax-only -x c - 2>/dev/null ||
		{ echo "lint: $h does not compile on its own"; bad=1; }
done
for part in compiler runtime audit; do
	for other in compiler runtime audit; do
		[ $part = $other ] && continue
		if git grep -n "#include \"$other/" -- "$part/" >/dev/null; then
			echo "lint: $part/ includes $other/ (only core/ is shared):"
			git grep -n "#include \"$other/" -- "$part/"
			bad=1
		fi
	done
done
git grep -n '#include "\(compiler\|runtime\|audit\)/' -- core/ && bad=1
for c in $(git ls-files 'core/*.c' 'compiler/*.c' 'runtime/*.c' 'audit/*.c' quotaflow.c); do
	last=$(grep '^#include' "$c" | tail -1)
	[ "$last" = '#include "core/banned.h"' ] ||
		{ echo "lint: $c: last include is not core/banned.h"; bad=1; }
done
exit $bad
