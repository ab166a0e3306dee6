"""The words shown for Race Around Europe's board keys: its five colours, three seas, two crossings and
its countries.

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
#: The board's countries as printed on the tiles and the map. The board data (and `tourpad journey`, which
#: reads typed names) keeps the English names; a board pack's country missing here is printed as it is.
COUNTRY_WORDS = {
    "Albania": N_("Albania"), "Austria": N_("Austria"), "Belarus": N_("Belarus"), "Belgium": N_("Belgium"),
    "Bosnia and Herzegovina": N_("Bosnia and Herzegovina"), "Bulgaria": N_("Bulgaria"), "Croatia": N_("Croatia"),
    "Cyprus": N_("Cyprus"), "Czech Republic": N_("Czech Republic"), "Denmark": N_("Denmark"),
    "England": N_("England"), "Estonia": N_("Estonia"), "Finland": N_("Finland"), "France": N_("France"),
    "Germany": N_("Germany"), "Greece": N_("Greece"), "Hungary": N_("Hungary"), "Iceland": N_("Iceland"),
    "Ireland": N_("Ireland"), "Italy": N_("Italy"), "Kosovo": N_("Kosovo"), "Latvia": N_("Latvia"),
    "Lithuania": N_("Lithuania"), "Luxembourg": N_("Luxembourg"), "Macedonia": N_("Macedonia"),
    "Malta": N_("Malta"), "Moldova": N_("Moldova"), "Monaco": N_("Monaco"), "Montenegro": N_("Montenegro"),
    "Netherlands": N_("Netherlands"), "Northern Ireland": N_("Northern Ireland"), "Norway": N_("Norway"),
    "Poland": N_("Poland"), "Portugal": N_("Portugal"), "Romania": N_("Romania"), "Russia": N_("Russia"),
    "Scotland": N_("Scotland"), "Serbia": N_("Serbia"), "Slovakia": N_("Slovakia"), "Slovenia": N_("Slovenia"),
    "Spain": N_("Spain"), "Sweden": N_("Sweden"), "Switzerland": N_("Switzerland"), "Turkey": N_("Turkey"),
    "Ukraine": N_("Ukraine"), "Wales": N_("Wales"),
}


def colour_word(colour: str) -> str:
    """A tile colour as a person reads it; a colour this module does not know is shown as it is."""
    return _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def sea_word(sea: str) -> str:
    return _(SEA_WORDS[sea]) if sea in SEA_WORDS else sea


def crossing_word(kind: str) -> str:
    return _(CROSSING_WORDS[kind]) if kind in CROSSING_WORDS else kind


def country_word(country: str) -> str:
    return _(COUNTRY_WORDS[country]) if country in COUNTRY_WORDS else country
