"""A question asked before something is done that a player may not mean: a round saved with no choice, an
undo. One dialog, its two answers as buttons; the question is a semantics node (`identifier`) for tests and
screen readers."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Awaitable, Callable

import flet as ft

from scorer.ui.app import PadApp, sem

Answer = Callable[[], Awaitable[None] | None]


def ask(app: PadApp, question: str, yes: str, no: str, on_yes: Answer, on_no: Answer | None = None,
        identifier: str = "question") -> None:
    """Show `question` with `no` (the safe answer) and `yes` (go ahead). An answer closes the dialog, and its
    callback (sync or async) runs once the dialog is gone from the screen (its dismiss event): a callback that
    redraws the screen under a dialog still closing would leave the dialog standing. Dismissed without an
    answer (a tap beside it, Back), nothing happens."""
    page = app.page
    chosen: list[Answer | None] = []

    def answer(callback: Answer | None) -> None:
        if chosen:  # tapped twice while closing
            return
        chosen.append(callback)
        with contextlib.suppress(Exception):  # the page moved on meanwhile
            page.pop_dialog()

    async def dismissed(e) -> None:
        callback = chosen[0] if chosen else None
        if callback is not None:
            result = callback()
            if inspect.isawaitable(result):
                await result

    dialog = ft.AlertDialog(
        content=sem(identifier, ft.Text(question, size=16)),
        actions=[sem(f"{identifier}-no", ft.TextButton(no, on_click=lambda e: answer(on_no))),
                 sem(f"{identifier}-yes", ft.FilledButton(yes, on_click=lambda e: answer(on_yes)))],
        actions_alignment=ft.MainAxisAlignment.END, on_dismiss=dismissed)
    page.show_dialog(dialog)
