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
    """Show `question` with `no` (dismiss, the safe answer) and `yes` (go ahead); each answer closes the
    dialog first, then runs its callback (sync or async)."""
    page = app.page

    async def answer(callback: Answer | None) -> None:
        with contextlib.suppress(Exception):  # already closed (tapped twice, the page moved on)
            page.pop_dialog()
        if callback is not None:
            result = callback()
            if inspect.isawaitable(result):
                await result

    async def say_yes(e) -> None:
        await answer(on_yes)

    async def say_no(e) -> None:
        await answer(on_no)

    dialog = ft.AlertDialog(
        content=sem(identifier, ft.Text(question, size=16)),
        actions=[sem(f"{identifier}-no", ft.TextButton(no, on_click=say_no)),
                 sem(f"{identifier}-yes", ft.FilledButton(yes, on_click=say_yes))],
        actions_alignment=ft.MainAxisAlignment.END, on_dismiss=None)
    page.show_dialog(dialog)
