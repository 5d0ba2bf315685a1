"""Shared fixtures. Tests of the pure packages never touch the database."""
