args: compile tests/fixtures/spec/no-pool.yaml --stdout
exit: 1
stderr-has: no Pool document found
