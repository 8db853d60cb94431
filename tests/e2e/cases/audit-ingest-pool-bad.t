# a Pool whose prices cannot be stored as written is rejected at the
# field (QF703): spec.flavors (not flavours) lost every price, a price
# written as a string was skipped, a negative one stored; all exit 0
setup-sh: sed 's/flavours:/flavors:/' tests/fixtures/audit/pool.yaml >"$tmp/aipb1.yaml" && sed 's/pricePerGpuHour: 2.50/pricePerGpuHour: "2.50"/' tests/fixtures/audit/pool.yaml >"$tmp/aipb2.yaml" && sed 's/pricePerGpuHour: 2.50/pricePerGpuHour: -1/' tests/fixtures/audit/pool.yaml >"$tmp/aipb3.yaml"
args: audit ingest --db "$tmp/aipb.db" "$tmp/aipb1.yaml" "$tmp/aipb2.yaml" "$tmp/aipb3.yaml"
exit: 1
stderr-has: /aipb1.yaml:7:3: error: Pool lab: spec.flavors: the Pool's list is spec.flavours [QF703]
stderr-has: /aipb2.yaml:7:45: error: Pool lab: spec.flavours[].pricePerGpuHour is not a number of 0 or more [QF703]
stderr-has: /aipb3.yaml:7:45: error: Pool lab: spec.flavours[].pricePerGpuHour is not a number of 0 or more [QF703]
stdout-has: ingested 3 records: 0 added, 3 rejected
