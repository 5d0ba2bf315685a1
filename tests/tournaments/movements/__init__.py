"""Tests of the pure movements package (no database)."""
