"""Models (see the package docstring)."""
