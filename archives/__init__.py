"""Archives of every kind of competition (``docs/archive-format.md``).

One JSON document per competition, with no database id in it, that restores on any server:
duplicate events (``archives.events``), team-match cups (``archives.cups``), free-deal
tournaments (``archives.free_deals``) and season series with their events
(``archives.series``). ``archives.format`` holds what they share (the envelope, safe reading,
stable writing, the value checkers); ``archives.kinds`` restores any kind by its schema.
"""
