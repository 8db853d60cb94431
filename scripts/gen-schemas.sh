#!/bin/sh
# Turns schemas/*.json into a C file of strings so that the binary carries
# its built-in schemas.  Output starts with a do-not-edit banner.
set -eu
echo "/* generated from schemas/*.json by scripts/gen-schemas.sh, do not edit */"
echo "#include <stddef.h>"
echo "struct qf_schema_blob { const char *name; const char *json; };"
n=0
for f in "$@"; do
	printf 'static const char blob%d[] =\n' "$n"
	# one C string literal per line, escaped
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$f"
	echo ";"
	n=$((n + 1))
done
echo "const struct qf_schema_blob qf_schema_blobs[] = {"
n=0
for f in "$@"; do
	printf '\t{ "%s", blob%d },\n' "$(basename "$f" .json)" "$n"
	n=$((n + 1))
done
echo "};"
echo "const size_t qf_schema_nblobs = $n;"
