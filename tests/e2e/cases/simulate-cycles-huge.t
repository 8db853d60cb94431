# --cycles N stops at the first cycle that changes nothing (no later one at
# the same time could): a huge N ends at once instead of spinning for days
# (the runner's timeout catches the old behaviour).
args: simulate -f tests/controller/fixtures/setup.yaml -f tests/controller/fixtures/job1.yaml --cycles 99999999999999
exit: 0
stdout-has: cluster-queue         1
