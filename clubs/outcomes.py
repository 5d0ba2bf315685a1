"""The outcome vocabulary every kind of competition shares (duplicate tables, cup rooms,
free-deal tables): the seats, contracts, sides and poignée sizes as stored choices, and a
seat's one-letter label. The pure rules (``rules.enums``, ``rules.duplicate``) are the values;
this module gives them their Django choices and translated labels. The API's outcome field is
:class:`clubs.api.OutcomeField`."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from rules import enums
from rules.duplicate import DUPLICATE_SEATS

SEATS = DUPLICATE_SEATS  # N, E, S, W


class Seat(models.TextChoices):
    NORTH = SEATS[0], _("North")
    EAST = SEATS[1], _("East")
    SOUTH = SEATS[2], _("South")
    WEST = SEATS[3], _("West")


class Contract(models.TextChoices):
    PRISE = enums.Contract.PRISE.value, _("Prise")
    GARDE = enums.Contract.GARDE.value, _("Garde")
    GARDE_SANS = enums.Contract.GARDE_SANS.value, _("Garde sans")
    GARDE_CONTRE = enums.Contract.GARDE_CONTRE.value, _("Garde contre")


class Side(models.TextChoices):
    ATTACK = enums.Side.ATTACK.value, _("Attack")
    DEFENCE = enums.Side.DEFENCE.value, _("Defence")


class PoigneeSize(models.TextChoices):
    SIMPLE = enums.PoigneeSize.SIMPLE.value, _("simple")
    DOUBLE = enums.PoigneeSize.DOUBLE.value, _("double")
    TRIPLE = enums.PoigneeSize.TRIPLE.value, _("triple")


def seat_letter(seat: object) -> str:
    """The one-letter label of a seat code in the active language (W is "O" in French)."""
    letters = {
        "N": pgettext("seat letter", "N"),
        "E": pgettext("seat letter", "E"),
        "S": pgettext("seat letter", "S"),
        "W": pgettext("seat letter", "W"),
    }
    return letters.get(str(seat), str(seat))
