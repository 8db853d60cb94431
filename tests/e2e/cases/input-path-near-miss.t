# A new user's input path that is not there: the error says the near miss
# in its folder (pool.yml for pool.yaml), and a file named as a folder
# (acme.yaml/) says which file; both are input errors (exit 1), where a
# file named as a folder exited 2 from compile, and neither gave a hint
args: validate examples/tenants/pool.yml examples/tenant examples/tenants/acme.yaml/
exit: 1
stderr-has: examples/tenants/pool.yml: error: cannot read path: No such file or directory [QF002]
stderr-has: hint: did you mean examples/tenants/pool.yaml?
stderr-has: hint: did you mean examples/tenants?
stderr-has: examples/tenants/acme.yaml/: error: cannot read path: Not a directory [QF002]
stderr-has: hint: examples/tenants/acme.yaml is a file, not a folder: name it without what follows
after-sh: "$QF" compile examples/tenants/pool.yaml/ --stdout >/dev/null 2>&1; test $? = 1
