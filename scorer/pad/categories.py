"""Round entry by category in the pad: the form's fields and labels, and its live preview.

The rules (what a value may be, how it scores, the shared bonuses) are `rules.categories`; this module
only hands the screens what they show.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from rules import categories as rules
from rules import wording
from rules.categories import NUMBER_FIELDS, CategoryState
from rules.edition import Edition

__all__ = ["NUMBER_FIELDS", "CategoryState", "draft_base", "field_labels", "form_values", "preview"]


def field_labels(edition: Edition) -> dict[str, str]:
    """Each field's label: the edition's own names ("Cuisine: icon total", "New countries")."""
    return wording.category_labels(edition)


def preview(edition: Edition, state: CategoryState, p: int, values: Mapping, n_players: int,
            round_number: int) -> tuple[int | None, list[str]]:
    """Live points for a form being filled in: (own points, lines), or (None, [the problem])."""
    return rules.preview(edition, state, p, values, n_players, round_number)


def form_values(saved: Mapping) -> dict:
    """What the form shows for a round saved as `saved` (its categories; empty: a round not entered yet), as the
    form hands its values to `enter_categories`: each number as text, the choice, the regions' keys, the route."""
    return {**{key: str(saved[key]) if key in saved else "" for key in NUMBER_FIELDS},
            "choice": saved.get("choice"), "regions": list(saved.get("regions", [])),
            "route": bool(saved.get("route", False))}


def draft_base(saved: Mapping) -> tuple:
    """The saved round a draft of the form was typed over (`scorer.pad.session.Draft.base`): a draft is dropped
    once that round changed elsewhere."""
    return (json.dumps(dict(saved), sort_keys=True),)
