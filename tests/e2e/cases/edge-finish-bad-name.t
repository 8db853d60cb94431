# finish with a name that cannot be a Kubernetes name (it would be sent
# raw into the request line): a usage error before any request
args: finish "team-a/job 1" --server http://127.0.0.1:1
exit: 2
stderr-has: finish: 'team-a/job 1' is not NS/NAME: a lowercase RFC 1123 subdomain
stderr-not: cannot reach
