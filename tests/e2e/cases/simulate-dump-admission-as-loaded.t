# A loaded status.admission is dumped with the podSetAssignments it listed
# and no more: an empty list stays empty, and a list naming one of two pod
# sets names that one (what Kueue's cache holds and the object says); no
# empty entry is made up for the others.  Its usage is what it assigned.
args: simulate -f tests/fixtures/simulate/admission-unlisted-podsets.yaml --cycles 1 --dump-state "$tmp/adm.json"
exit: 0
after-sh: python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w={o["metadata"]["name"]: o["status"]["admission"]["podSetAssignments"] for o in d["items"] if o["kind"]=="Workload"}; assert w["wl"]==[], w; assert [a["name"] for a in w["partial"]]==["second"], w; assert w["partial"][0]["flavors"]=={"cpu": "default"}, w; c=[o for o in d["items"] if o["kind"]=="ClusterQueue"][0]["status"]; assert c["flavorsReservation"][0]["resources"][0]["total"]=="1", c' "$tmp/adm.json"
