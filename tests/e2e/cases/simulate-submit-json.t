# The fate report and the queue summary as one JSON object.
args: simulate -f examples/simulate/cluster.yaml --submit examples/simulate/jobs.yaml --format json
exit: 0
--- stdout
{
  "makespan_ms": 0,
  "workloads": [
    {
      "workload": "team-a/job-train-90800",
      "state": "admitted",
      "clusterQueue": "team-a",
      "admittedAtMs": 0,
      "flavors": {
        "main": {
          "cpu": "default"
        }
      },
      "borrowed": {
        "default": {
          "cpu": "0"
        }
      }
    },
    {
      "workload": "team-a/job-sweep-eda54",
      "state": "admitted",
      "clusterQueue": "team-a",
      "admittedAtMs": 0,
      "flavors": {
        "main": {
          "cpu": "default"
        }
      },
      "borrowed": {
        "default": {
          "cpu": "3"
        }
      }
    },
    {
      "workload": "team-a/job-shard-1-554da",
      "state": "pending",
      "reason": "WaitingForQuota",
      "message": "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed"
    },
    {
      "workload": "team-a/job-shard-2-cd256",
      "state": "pending",
      "reason": "NotEvaluated",
      "message": "it has the same shape (queue, priority, requests) as team-a/job-shard-1-554da, which is waiting (WaitingForQuota); Kueue does not evaluate workloads like an inadmissible one again until quota frees up in ClusterQueue team-a or its cohort"
    }
  ],
  "clusterQueues": {
    "team-a": {
      "admitted": 2,
      "borrowing": 1,
      "waiting": 2,
      "waited": 0,
      "longestWaitMs": 0,
      "preempted": 0,
      "preempting": 0
    },
    "team-b": {
      "admitted": 0,
      "borrowing": 0,
      "waiting": 0,
      "waited": 0,
      "longestWaitMs": 0,
      "preempted": 0,
      "preempting": 0
    }
  }
}
