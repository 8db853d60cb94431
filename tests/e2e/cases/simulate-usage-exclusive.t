# usage errors say what is wrong, then the usage line, and exit 2
args: simulate -f examples/simulate --cycles 1 --until 5s
exit: 2
stderr-has: quotaflow: error: simulate: --cycles and --until exclude each other
stderr-has: usage: quotaflow simulate -f FILE...
