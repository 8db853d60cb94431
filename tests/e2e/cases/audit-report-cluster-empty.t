# report --cluster "" (an unset shell variable) is a usage error
args: audit report --db x.db --cluster ""
exit: 2
stderr-has: audit report: --cluster must not be empty
