"""The printables package's words: its gettext domain and the marks its modules use (docs/translating.md)."""

from __future__ import annotations

from pathlib import Path

from rules.i18n import N_, Domain

DOMAIN = Domain("printables", Path(__file__).parent)
_, ngettext, pgettext, npgettext = DOMAIN.gettext, DOMAIN.ngettext, DOMAIN.pgettext, DOMAIN.npgettext

__all__ = ["DOMAIN", "N_", "_", "ngettext", "npgettext", "pgettext"]
