# A count that cannot be read (a string, past the limit) is one error, not
# also a comparison of the value put in its place (QF310 twice)
args: compile tests/fixtures/spec/count-not-read.yaml --stdout -q
exit: 1
stderr-has: count-not-read.yaml:25:16: error: "committed" must be a whole number, not the string "16" [QF303]
stderr-has: count-not-read.yaml:37:15: error: "lendable" is 9999999; it must be between 0 and 1000000 [QF304]
stderr-not: QF310
stderr-not: QF309
