"""What the benchmark scripts share: statistics over samples (stats), the
line that stamps each generated table (stamp) and reading, writing and
laying out tables (tables)."""
