"""What the benchmark scripts share: statistics over samples (stats)."""
