"""Icon-only controls a screen reader can name.

Flet puts an IconButton's tooltip on a wrapper around the button, not on the button: a screen reader then
meets a button with no name (axe-core: aria-command-name). The label given to the icon itself is merged
into the button's own name, so these controls carry it there; the tooltip still shows it on a long press
or a hover. Each is at least TAP_TARGET px square, whatever density the platform's theme picks.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

#: The smallest square a finger is asked to hit (px); WCAG 2.5.5 asks for 44, Material for 48.
TAP_TARGET = 48


def icon_button(icon: ft.IconData, label: str, on_click: Callable | None, **options) -> ft.IconButton:
    """An icon button whose name is `label`."""
    return ft.IconButton(icon=ft.Icon(icon, semantics_label=label), tooltip=label, on_click=on_click,
                         width=TAP_TARGET, height=TAP_TARGET, **options)


def menu_button(icon: ft.IconData, label: str, items: list[ft.PopupMenuItem]) -> ft.PopupMenuButton:
    """A menu opened by an icon, named `label`."""
    return ft.PopupMenuButton(content=ft.Container(ft.Icon(icon, semantics_label=label), width=TAP_TARGET,
                                                   height=TAP_TARGET, alignment=ft.Alignment.CENTER),
                              tooltip=label, items=items)
