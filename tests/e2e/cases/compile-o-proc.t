# -o into a folder where no file can be created for a reason other than
# permissions (/proc/self: ENOENT) is an output failure, exit 2 like a
# read-only folder (compile-o-read-only.t); it exited 1, the code of a
# missing input
args: compile examples/tenants -q -o /proc/self
exit: 2
stderr-has: /proc/self/.quotaflow-manifest: error: cannot create a temporary file beside it: No such file or directory [QF002]
