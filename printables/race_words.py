"""The words shown for Race Around Europe's board keys: its five colours, three seas and two crossings.

The board data names them in English, and those names stay its keys (packs, records, `kind_of`); what a
person reads on a tile, the map or `tourpad board show` comes from here, in the language of the moment.
No reportlab here, so the command line can use it without loading the PDF library.
"""

from __future__ import annotations

from printables.locale import N_, _

COLOUR_WORDS = {"blue": N_("blue"), "green": N_("green"), "orange": N_("orange"), "pink": N_("pink"),
                "yellow": N_("yellow")}
SEA_WORDS = {"Atlantic": N_("Atlantic"), "Mediterranean": N_("Mediterranean"), "Baltic": N_("Baltic")}
CROSSING_WORDS = {"ferry": N_("ferry"), "bridge": N_("bridge")}


def colour_word(colour: str) -> str:
    """A tile colour as a person reads it; a colour this module does not know is shown as it is."""
    return _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def sea_word(sea: str) -> str:
    return _(SEA_WORDS[sea]) if sea in SEA_WORDS else sea


def crossing_word(kind: str) -> str:
    return _(CROSSING_WORDS[kind]) if kind in CROSSING_WORDS else kind
