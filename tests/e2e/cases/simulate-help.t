# simulate --help prints the pinned usage line
args: simulate --help
exit: 0
stdout-has: quotaflow simulate -f FILE... [--trace FILE] [--submit FILE] [--apply FILE...] [--cycles N | --until DURATION] [--events FILE] [--dump-state FILE] [--summary FILE]
