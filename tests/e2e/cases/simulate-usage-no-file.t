args: simulate --cycles 1
exit: 2
stderr-has: quotaflow: error: simulate: -f FILE is required
