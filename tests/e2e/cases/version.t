args: --version
exit: 0
stdout-has: quotaflow 
