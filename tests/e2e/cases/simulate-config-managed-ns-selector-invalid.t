# A managedJobsNamespaceSelector that selects kube-system is refused, as
# Kueue refuses to start with it (pkg/config/validation.go
# validateManagedJobsNamespaceSelector), and so is a
# manageJobsWithoutQueueName that is no boolean.
setup-sh: printf 'apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nmanageJobsWithoutQueueName: "yes"\nmanagedJobsNamespaceSelector: {}\n' >"$tmp/bad-cfg.yaml"
args: simulate -f tests/controller/fixtures/setup.yaml -f "$tmp/bad-cfg.yaml"
exit: 1
stderr-has: bad-cfg.yaml:3:29: error: manageJobsWithoutQueueName must be true or false [QF510]
stderr-has: bad-cfg.yaml:4:31: error: managedJobsNamespaceSelector should not match the "kube-system" namespace (Kueue refuses to start) [QF510]
