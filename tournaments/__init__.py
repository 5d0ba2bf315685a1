"""Events, players, teams, deals, movements and table results (the organiser's side).

Depends on ``rules`` (pure tarot) and never on ``scoring``: it announces that the results of an
event changed with the ``results_changed`` signal, sent on commit, and ``scoring`` listens.
"""
