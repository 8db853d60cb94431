args: hepl
exit: 2
stderr-has: 'hepl' is not a quotaflow command. Did you mean 'help'?
