"""The app's colours and text size, in one place: what the screens draw is what tests/test_contrast.py
measures.

The colour scheme is Material 3's "tonal spot" scheme of the seed colour (what Flutter's
`ColorScheme.fromSeed` derives), written out role by role: Flutter would compute the same colours, but
only written out can a test check every text/background pair against WCAG AA, and a fix stay put.
"""

from __future__ import annotations

import flet as ft

SEED_COLOR = "#1F7A6D"

#: Role → colour, light theme (Material 3 tonal spot of SEED_COLOR).
LIGHT = {
    "primary": "#006B5E", "on_primary": "#FFFFFF",
    "primary_container": "#9FF2E2", "on_primary_container": "#005047",
    "secondary": "#4A635E", "on_secondary": "#FFFFFF",
    "secondary_container": "#CDE8E1", "on_secondary_container": "#334B46",
    "tertiary": "#446179", "on_tertiary": "#FFFFFF",
    "tertiary_container": "#CBE6FF", "on_tertiary_container": "#2C4A60",
    "error": "#BA1A1A", "on_error": "#FFFFFF",
    "error_container": "#FFDAD6", "on_error_container": "#93000A",
    "surface": "#F4FBF8", "on_surface": "#171D1B", "on_surface_variant": "#3F4946",
    "outline": "#6F7976", "outline_variant": "#BEC9C5",
    "inverse_surface": "#2B3230", "on_inverse_surface": "#ECF2EF", "inverse_primary": "#83D5C6",
    "surface_container_lowest": "#FFFFFF", "surface_container_low": "#EFF5F2",
    "surface_container": "#E9EFEC", "surface_container_high": "#E3EAE7",
    "surface_container_highest": "#DDE4E1",
}
#: Role → colour, dark theme.
DARK = {
    "primary": "#83D5C6", "on_primary": "#003730",
    "primary_container": "#005047", "on_primary_container": "#9FF2E2",
    "secondary": "#B1CCC5", "on_secondary": "#1C3530",
    "secondary_container": "#334B46", "on_secondary_container": "#CDE8E1",
    "tertiary": "#ACCAE5", "on_tertiary": "#133348",
    "tertiary_container": "#2C4A60", "on_tertiary_container": "#CBE6FF",
    "error": "#FFB4AB", "on_error": "#690005",
    "error_container": "#93000A", "on_error_container": "#FFDAD6",
    "surface": "#0E1513", "on_surface": "#DDE4E1", "on_surface_variant": "#BEC9C5",
    "outline": "#899390", "outline_variant": "#3F4946",
    "inverse_surface": "#DDE4E1", "on_inverse_surface": "#2B3230", "inverse_primary": "#006B5E",
    "surface_container_lowest": "#090F0E", "surface_container_low": "#171D1B",
    "surface_container": "#1B211F", "surface_container_high": "#252B2A",
    "surface_container_highest": "#303634",
}
PALETTES = {False: LIGHT, True: DARK}


#: Buttons at least 48 px tall at the normal text size (a finger's target; WCAG 2.5.5 asks for 44), taller
#: as the text grows; Material's own heights are 40, and 32 where Flutter picks its compact density
#: (a desktop browser).
TEXT_BUTTON_PADDING = ft.Padding.symmetric(horizontal=12, vertical=14)
BUTTON_PADDING = ft.Padding.symmetric(horizontal=24, vertical=14)


def build_theme(dark: bool, text_scale: float = 1.0) -> ft.Theme:
    """The app's theme; `text_scale`: every text style that much larger (a window the app scales itself,
    `scorer.ui.text_size.own_text_scale`)."""
    from scorer.ui.text_size import text_theme

    return ft.Theme(color_scheme_seed=SEED_COLOR, use_material3=True, text_theme=text_theme(text_scale),
                    color_scheme=ft.ColorScheme(**PALETTES[dark]),
                    visual_density=ft.VisualDensity.STANDARD,  # not compact in a desktop browser
                    text_button_theme=ft.TextButtonTheme(style=ft.ButtonStyle(padding=TEXT_BUTTON_PADDING)),
                    filled_button_theme=ft.FilledButtonTheme(style=ft.ButtonStyle(padding=BUTTON_PADDING)),
                    outlined_button_theme=ft.OutlinedButtonTheme(style=ft.ButtonStyle(padding=BUTTON_PADDING)),
                    button_theme=ft.ButtonTheme(style=ft.ButtonStyle(padding=BUTTON_PADDING)),
                    switch_theme=ft.SwitchTheme(padding=ft.Padding.symmetric(horizontal=4, vertical=4)))
