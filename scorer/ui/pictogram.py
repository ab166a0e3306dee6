"""Card icons on screen: our SVG pictograms from ``assets/icons``, or a Material icon for a name we
have no pictogram for (an imported pack's own icons)."""

from __future__ import annotations

import flet as ft

from scorer.pad.pictograms import pictogram_svg

INK = {False: "#1F5F56", True: "#9ED8CC"}  # light / dark theme
PAPER = {False: "#FFFFFF", True: "#1C2624"}
#: Fallbacks by family kind, as the app showed before the pictograms existed.
FALLBACK = {"collection": ft.Icons.COLLECTIONS_BOOKMARK_OUTLINED, "pairs": ft.Icons.PETS,
            "choice": ft.Icons.LOCAL_ACTIVITY_OUTLINED}


def is_dark(page: ft.Page | None) -> bool:
    return page is not None and page.theme_mode == ft.ThemeMode.DARK


def card_icon(name: str, kind: str, size: int = 24, dark: bool = False, label: str | None = None) -> ft.Control:
    """The icon ``name`` of a family of kind ``kind`` ('collection', 'pairs', 'choice') as a small badge;
    the semantics identifier says which was shown (``pictogram-<name>`` or ``fallback-<name>``, from the
    English key), its label what a screen reader says (``label``, the name in the reader's language)."""
    label = label or name
    svg = pictogram_svg(name, INK[dark], PAPER[dark])
    slug = "-".join(name.casefold().split())
    if svg is None:
        return ft.Semantics(identifier=f"fallback-{slug}", label=label,
                            content=ft.Icon(FALLBACK.get(kind, ft.Icons.CIRCLE_OUTLINED), size=size,
                                            color=INK[dark]))
    return ft.Semantics(identifier=f"pictogram-{slug}", label=label, content=ft.Container(
        ft.Image(src=svg, width=size - 4, height=size - 4), width=size, height=size,
        bgcolor=PAPER[dark], border_radius=size // 4, padding=2, alignment=ft.Alignment.CENTER))


def icon_reference(family, kind: str, dark: bool) -> ft.Control:
    """A family's icons with their values, so the player can count them on their cards."""
    return ft.Row([ft.Row([card_icon(icon.name, kind, size=22, dark=dark, label=icon.label),
                           ft.Text(f"{icon.label} {icon.value}" if icon.value else icon.label, size=12)],
                          spacing=4, tight=True) for icon in family.icons], wrap=True, spacing=10, run_spacing=4)
