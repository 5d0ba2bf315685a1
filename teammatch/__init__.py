"""Duplicate team matches (Coupe de France, interclubs) in a knockout cup.

The line-up checks, the match scoring and the bracket are pure (``scoring.core.team_match``);
this app stores the cup, its teams, matches, line-ups and room results, takes each room's
results from its table and publishes the bracket. See docs/team-matches.md.
"""
