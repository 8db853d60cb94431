# --crds must name a directory holding CRDs; otherwise nothing is validated.
args: validate --crds tests/fixtures/validate/good tests/fixtures/validate/good
exit: 2
stderr-has: error: no CustomResourceDefinition found [QF100]
stdout-not: objects
