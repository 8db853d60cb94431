# A -o whose folders cannot all be made (a name past 255 bytes) leaves none
# of the folders it made before the failure: new/x stayed behind
setup-sh: rm -rf "$tmp/fm" && mkdir -p "$tmp/fm"
args: compile examples/tenants -o "$tmp/fm/new/x/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/y"
exit: 2
stderr-has: error: cannot create directory: File name too long [QF002]
after-sh: test ! -e "$tmp/fm/new"
