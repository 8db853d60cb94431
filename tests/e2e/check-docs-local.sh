#!/bin/sh
# README.md and docs/ never point outside the repository (a user's clone
# has no ../shared): no relative path climbing out of it, no shared/ folder.
cd "$(dirname "$0")/../.." || exit 2
bad=$(grep -rnE '\.\./shared|(^|[^a-z])shared/(reference|kueue|STYLE)' README.md docs)
if [ -n "$bad" ]; then
	echo "docs-local: README.md or docs/ point outside the repository:"
	echo "$bad"
	exit 1
fi
echo "docs-local: README.md and docs/ stay inside the repository"
