"""What the benchmark scripts share: statistics over samples (stats) and
the line that stamps each generated table (stamp)."""
