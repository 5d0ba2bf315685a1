"""Models of tournaments."""
