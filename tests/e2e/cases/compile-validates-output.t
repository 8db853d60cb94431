# Every emitted object goes through the validator; findings point at the spec.
args: compile tests/fixtures/compile/invalid-output.yaml --stdout
exit: 1
stderr-has: invalid-output.yaml:8:7: error: generated ResourceFlavor a100: Too many: 9: must have at most 8 items [QF111]
stderr-has: at spec.tolerations
--- stdout
