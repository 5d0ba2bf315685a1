"""Writes of the tournaments app: keyword-only, typed, atomic service functions.

``events`` sets an event up (registration, teams, movement, deals, start);
``results`` takes table results and director decisions and announces changes on commit.
"""
