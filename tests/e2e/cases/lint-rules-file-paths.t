# A problem of a nested key of the --rules file names its whole path
# (names.tenat, accountFlavours.acme), as every other finding does; it said
# 'at tenat' and 'acme must be a list of strings'.
setup-sh: mkdir -p "$tmp/rulespaths" && printf 'names:\n  tenat: "^x"\n  cohort: 3\naccountFlavours:\n  acme: a100\n' >"$tmp/rulespaths/policy.yaml"
args: lint examples/tenants --rules "$tmp/rulespaths/policy.yaml"
exit: 2
stderr-has: policy.yaml:2:3: error: unknown key "tenat" in the rules file [QF600]
stderr-has:   at names.tenat
stderr-has: policy.yaml:3:11: error: names.cohort must be a string (a PCRE2 pattern) [QF600]
stderr-has: policy.yaml:5:9: error: accountFlavours.acme must be a list of strings [QF600]
stderr-has:   at accountFlavours.acme
