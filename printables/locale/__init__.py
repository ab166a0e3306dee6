"""The printables package's words in every language: its gettext domain `printables` (see `rules.i18n`).

A module of printables marks its messages with these: `_("…")`, `ngettext("one …", "{n} …", n)`,
`pgettext("context", "…")`, and `N_("…")` for a constant translated where it is shown. The French
catalog is `fr/LC_MESSAGES/printables.po`; `make catalogs` extracts new messages into it and compiles it.
"""

from __future__ import annotations

from pathlib import Path

from rules.i18n import N_, Domain

DOMAIN = Domain("printables", Path(__file__).parent)
_ = DOMAIN.gettext
ngettext = DOMAIN.ngettext
pgettext = DOMAIN.pgettext
npgettext = DOMAIN.npgettext

__all__ = ["DOMAIN", "N_", "_", "ngettext", "npgettext", "pgettext"]
