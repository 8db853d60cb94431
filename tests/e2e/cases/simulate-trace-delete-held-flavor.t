# A ResourceFlavor a ClusterQueue names is held by Kueue's resource-in-use
# finalizer: deleting it again meanwhile changes nothing; it goes with the
# last ClusterQueue naming it, and a delete after that finds nothing (the
# API server would answer NotFound): a warning, and the run goes on.
args: simulate -f tests/controller/fixtures/setup.yaml --trace tests/fixtures/simulate/trace-delete-rf-held.jsonl --until 4s
exit: 0
--- stdout
ClusterQueue  admitted  borrowing  waiting  waited  longest wait  preempted  preempting
--- stderr
tests/fixtures/simulate/trace-delete-rf-held.jsonl:4:1: warning: ResourceFlavor default-flavor no longer exists at 3000ms (it went when no ClusterQueue named it any more): delete ignored [QF520]
  at object.metadata.name
