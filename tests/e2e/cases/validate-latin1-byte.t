# A byte that is not UTF-8 (a Latin-1 e-acute, 0xE9) is named at its own
# place; libyaml's message named the quote after it ("invalid trailing
# UTF-8 octet (byte 0x22)", at 5:16) and the hint was the generic one
args: validate tests/fixtures/doc/bad/latin1-byte.yaml
exit: 1
stderr-has: latin1-byte.yaml:5:15: error: invalid input: byte 0xE9 is not UTF-8 here (byte 0x22 after it does not continue its sequence) [QF010]
stderr-has: hint: save the file as UTF-8; a byte of 0x80 or more alone is text in Latin-1 or another 8-bit encoding
