"""Background work: where a task sent by the apps runs (``settings.DUPLITAROT_BACKGROUND``).

- ``celery``: a broker is configured; the task goes to the Celery workers (production).
- ``thread``: a club's instance (``duplitarot serve``): the task runs on **the runner**, one
  thread of the server's first process, in the order sent. When serve runs several processes
  (``instance.processes``), the others hand their work to it (:data:`forward`): one runner for
  the whole server. The request that sent it answers at once; the runner catches and logs a
  failure (the next change, or the periodic work, redoes it).
- ``eager``: a developer's checkout and the tests: the task runs at once, in the caller.

:func:`send` is what the apps call. :func:`every` registers periodic work, which the runner
does every ``seconds`` (in ``thread`` mode only: Celery beat does it in production).
"""

from __future__ import annotations

import importlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

logger = logging.getLogger(__name__)

Work = tuple[Callable[..., Any], tuple[Any, ...], float]  # function, args, not before


class Runner:
    """One thread doing the work sent to it, one piece after the other, and periodic work."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Work | None] = queue.Queue()
        self._periodic: list[tuple[float, Callable[[], Any]]] = []
        self._next: list[float] = []
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._busy = 0

    def submit(self, function: Callable[..., Any], *args: Any, delay: float = 0.0) -> None:
        """Run ``function(*args)`` after the work already sent, not before ``delay`` seconds
        from now (the runner waits meanwhile: a delay is short)."""
        self.start()
        with self._lock:
            self._busy += 1
        self._queue.put((function, args, time.monotonic() + max(0.0, delay)))

    def every(self, seconds: float, function: Callable[[], Any]) -> None:
        with self._lock:
            self._periodic.append((seconds, function))
            self._next.append(time.monotonic() + seconds)

    def start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="duplitarot-runner", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the work already sent (up to ``timeout`` seconds), then stop."""
        thread = self._thread
        if thread is None:
            return
        self._queue.put(None)
        thread.join(timeout)
        self._thread = None

    def idle(self) -> bool:
        """Whether nothing sent is waiting or running."""
        with self._lock:
            return self._busy == 0

    def wait_idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.idle():
                return True
            time.sleep(0.02)
        return self.idle()

    def _due_wait(self) -> float:
        with self._lock:
            if not self._next:
                return 1.0
            return max(0.0, min(self._next) - time.monotonic())

    def _run(self) -> None:
        while True:
            try:
                work = self._queue.get(timeout=min(self._due_wait(), 1.0))
            except queue.Empty:
                self._run_periodic()
                continue
            if work is None:
                # This thread's database connections die with it: closed, not left to the GC.
                connections.close_all()
                return
            function, args, not_before = work
            wait = not_before - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            self._call(function, *args)
            with self._lock:
                self._busy -= 1
            self._run_periodic()

    def _run_periodic(self) -> None:
        now = time.monotonic()
        with self._lock:
            due = [
                (index, function)
                for index, (seconds, function) in enumerate(self._periodic)
                if self._next[index] <= now
            ]
            for index, _function in due:
                self._next[index] = now + self._periodic[index][0]
        for _index, function in due:
            self._call(function)

    @staticmethod
    def _call(function: Callable[..., Any], *args: Any) -> None:
        close_old_connections()
        try:
            function(*args)
        except Exception:
            logger.exception("background work %s%r failed", getattr(function, "__name__", ""), args)
        finally:
            close_old_connections()


#: The process's runner (``thread`` mode).
runner = Runner()

#: Where ``send`` and ``run`` hand their work over in a serving process that has no runner of
#: its own (``instance.processes``): ``forward(reference, args, delay)``; None: the local runner.
forward: Callable[[str, tuple[Any, ...], float], None] | None = None


def reference(function: Any) -> str:
    """``module:name`` of a module-level function or Celery task, for :func:`resolve`."""
    name = str(getattr(function, "__qualname__", None) or getattr(function, "__name__", ""))
    if "<" in name or "." in name:  # a lambda, a local or a method: not importable
        raise ValueError(f"{function!r} is not a module-level function")
    return f"{function.__module__}:{name}"


def resolve(ref: str) -> Callable[..., Any]:
    """The function a :func:`reference` names (a Celery task: its ``run``)."""
    module, _sep, name = ref.partition(":")
    found = getattr(importlib.import_module(module), name)
    run_ = getattr(found, "run", None)
    return run_ if callable(run_) and hasattr(found, "apply_async") else found


def send(task: Any, *args: Any, coalesce: float = 0.0) -> None:
    """Run the Celery ``task`` with ``args`` where the settings say (see the module).

    ``coalesce`` (``thread`` mode): the runner starts the task that many seconds after it was
    sent, so that work sent meanwhile (which the task does too) is not redone piece by piece.
    The workers' queue and the eager mode ignore it."""
    if settings.DUPLITAROT_BACKGROUND == "thread":
        if forward is not None:
            forward(reference(task), args, coalesce)
        else:
            runner.submit(task.run, *args, delay=coalesce)
        return
    # Celery: to the workers, or at once in the caller when CELERY_TASK_ALWAYS_EAGER.
    queue_name = getattr(settings, "SCORING_QUEUE", None)
    if queue_name:
        task.apply_async(args, queue=queue_name)
    else:
        task.delay(*args)


def run(function: Callable[..., Any], *args: Any) -> None:
    """Run plain ``function`` off the request when a runner exists (``thread`` mode), else now."""
    if settings.DUPLITAROT_BACKGROUND == "thread":
        if forward is not None:
            forward(reference(function), args, 0.0)
        else:
            runner.submit(function, *args)
    else:
        function(*args)


def every(seconds: float, function: Callable[[], Any]) -> None:
    """Do ``function`` every ``seconds`` on the runner (``thread`` mode only)."""
    runner.every(seconds, function)
