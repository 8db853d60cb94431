# An input that holds no document is named: an empty file given alone is
# the error's place and says it is empty, where compile said "no Pool
# document found" and lint and validate "1 file read", of no file
setup-sh: mkdir -p "$tmp/ef/d" && : >"$tmp/ef/empty.yaml" && : >"$tmp/ef/d/pool.yaml" && printf '# a comment\n---\n' >"$tmp/ef/d/t.yaml"
args: compile "$tmp/ef/empty.yaml" --stdout
exit: 1
stderr-has: ef/empty.yaml: error: no objects to compile: the file holds no document (it is empty, or holds only comments or ---) [QF307]
stderr-has: hint: expected a Pool and its Tenants (apiVersion quotaflow.dev/v1alpha1)
stderr-not: no Pool document found
after-sh: "$QF" compile "$tmp/ef/d" --stdout 2>&1 | grep -qF 'no objects to compile: none of the 2 files read under the paths given holds a document [QF307]'
