"""Dev-only tooling: benchmarks, the load test and the scale builder.

``bench`` may import every app; no production app (nor ``demo``) imports it, an import
contract in pyproject.toml (``[tool.importlinter]``) says so in CI.
"""
