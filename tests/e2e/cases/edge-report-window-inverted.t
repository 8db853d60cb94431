# audit report --since after --until: a usage error, not an empty report
# over a window that ends before it starts
args: audit report --db tests/fixtures/audit/newer.db --since 2026-01-01T00:00:00Z --until 2025-01-01T00:00:00Z
exit: 2
stderr-has: audit report: --since 2026-01-01T00:00:00Z is after --until 2025-01-01T00:00:00Z
