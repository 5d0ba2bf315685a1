"""New players: the one rule of every path that creates a player.

A player is created by the organisers of one club, the *writing club*: its register (the form,
the CSV import), a competition of the club (a player typed by hand, a substitute, a players'
file, a free-deal newcomer), an archive restored into the club; API writes and the results a
laptop pushes to a hosted server will be more of them. Whatever the input says of his club, a
new player is either

- a **member** of the writing club: his home club is the writing club, and he is on its
  register (the caller adds the line, :class:`clubs.register.RegisterPlan` or
  :func:`member_line`); or
- not a member: no home club, a guest of the competition that named him; on the writing
  club's register when the path puts every player there (a register's or a competition's
  import, a player typed by hand), else on no register (an archive's player of another
  club).

Never another club's: no path gives a new player another club as his home club, puts him on
another club's register or creates a club for him (on a league's server, a club's organisers
write only their own club). A *known* player, his licence known to the server, is that player:
the paths match licences before they create anybody, and never rename him.

:func:`player_new` is the only place that makes a :class:`~clubs.models.Player`
(``tests/clubs/test_newcomers.py`` checks the code for any other).
"""

from __future__ import annotations

from clubs.models import Club, Membership, Player


def player_new(
    *,
    club: Club,
    first_name: str,
    last_name: str,
    licence: str | None = None,
    series: str = "",
    member: bool = True,
) -> Player:
    """A new player (not saved) written by the organisers of ``club``: a ``member`` of
    ``club`` (his home club), else without home club. See the module docstring."""
    return Player(
        first_name=first_name,
        last_name=last_name,
        licence=licence,
        series=series,
        club=club if member else None,
    )


def names_club(club: Club, name: str | None) -> bool:
    """Whether ``name``, the club an input gives a player (an archive's or a players' file's
    club, ignoring case and the spaces around it), is ``club``."""
    return (name or "").strip().casefold() == club.name.strip().casefold()


def member_line(player: Player) -> Membership | None:
    """The register line (not saved) of a new ``player`` on his home club's register, which
    :func:`player_new` made the writing club's; None for a player without home club."""
    if player.club is None:
        return None
    return Membership(club=player.club, player=player)
