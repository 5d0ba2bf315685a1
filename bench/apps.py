from django.apps import AppConfig


class BenchConfig(AppConfig):
    """Dev-only tooling: benchmarks, the load test and the scale builder (no models).

    Its management commands (``bench_scoring``, ``bench_recompute``, ``scale_event``,
    ``loadtest``) drive the production apps; no production app imports this package.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "bench"
