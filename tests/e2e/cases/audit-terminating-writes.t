# D3 from audit-log writes: q1's delete at 2 s leaves Kueue's finalizer (terminating from its deletionTimestamp), a patch at 3 s while it terminates gives no quota (Kueue's cache takes no update of a terminating ClusterQueue), Kueue's update at 4 s takes the finalizer off (removed); Cohort c's delete at 2 s leaves a finalizer not Kueue's (nothing changes) and the update at 5 s that takes it off removes c; Cohort d's delete without its response (level Metadata) removes it (Kueue puts no finalizer on a Cohort); q2's delete without its response leaves it terminating (Kueue's webhook puts one on every ClusterQueue); Kueue's status write of q3 (v0.18.5 on: Active False, Terminating) has its deletionTimestamp: terminating from then
setup: audit ingest --db "$tmp/audit-tw.db" tests/fixtures/audit/terminating/writes.jsonl
args: audit query --db "$tmp/audit-tw.db" "select kind, name, valid_from_ms - 1781254800000 as t, coalesce(parent, '-') as parent, deleted from queue_objects union all select 'quota', cluster_queue, valid_from_ms - 1781254800000, nominal_milli, 0 from quotas order by 2, 3, 1"
exit: 0
--- stdout
kind	name	t	parent	deleted
Cohort	c	5000	-	1
Cohort	d	6000	-	1
ClusterQueue	q1	1000	c	0
quota	q1	1000	2000	0
ClusterQueueTerminating	q1	2000	-	0
ClusterQueue	q1	4000	-	1
ClusterQueueTerminating	q2	7000	-	0
ClusterQueueActive	q3	8000	Terminating	1
ClusterQueueTerminating	q3	8000	-	0
