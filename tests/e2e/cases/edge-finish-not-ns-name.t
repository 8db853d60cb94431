# finish with a name that is not NS/NAME says so (exit 2)
args: finish job1
exit: 2
stderr-has: finish: 'job1' is not NS/NAME (a namespace, a slash, a name)
