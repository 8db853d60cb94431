# Anything but white space between the objects of a JSON stream (here the
# comma of an array written without its brackets) is an error at its
# position that says what is expected.
setup-sh: printf '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}},\n{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}\n' >"$tmp/comma.json"
args: validate "$tmp/comma.json"
exit: 1
stdout-has: 1 file not loaded
stderr-has: comma.json:1:63: error: JSON stream: found ',' after an object; expected '{' starting the next object, or the end of the input [QF010]
