"""Signals ``tournaments`` sends; ``scoring`` subscribes (tournaments never imports scoring).

``results_changed(sender=Event, event_id=int, results_version=int)`` is sent **on commit**
whenever a table result, an artificial score or a penalty of the event changed.
"""

from django.dispatch import Signal

results_changed = Signal()
