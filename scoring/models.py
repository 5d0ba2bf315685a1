"""Models of scoring."""
