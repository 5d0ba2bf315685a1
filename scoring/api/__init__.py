"""REST API v1 of the scoring app: rankings and hand scores, read from the snapshot only."""
