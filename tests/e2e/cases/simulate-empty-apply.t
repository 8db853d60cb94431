# An --apply input without any object would replace the whole policy with
# nothing: an error, not every workload left without a queue.
args: simulate -f tests/controller/fixtures/setup.yaml --apply tests/fixtures/simulate/no-objects.yaml
exit: 1
stderr-has: error: no objects to simulate in --apply: 1 file read [QF004]
