# validate, audit ingest: an input that is a symbolic link to nothing says so and names the target; both said only "No such file or directory" of a name ls shows
setup-sh: ln -s "$tmp/vdl-missing.yaml" "$tmp/vdl-link.yaml"
args: validate "$tmp/vdl-link.yaml"
exit: 1
stderr-has: vdl-link.yaml: error: cannot read path: it is a symbolic link to 
stderr-has: vdl-missing.yaml, which does not exist [QF002]
after-sh: "$QF" audit ingest --db "$tmp/vdl.db" "$tmp/vdl-link.yaml" 2>&1 | grep -q 'cannot open: it is a symbolic link to .*vdl-missing.yaml, which does not exist'
