"""The shipped DejaVu fonts, registered once with reportlab (which embeds only the glyphs used),
and text fitting: shrink a label, then wrap it, so it never leaves its box."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from assets import BOLD_FILE, CONDENSED_BOLD_FILE, SANS_FILE

SANS = "TourpadSans"
BOLD = "TourpadSans-Bold"
CONDENSED_BOLD = "TourpadSansCondensed-Bold"
_FILES = {SANS: SANS_FILE, BOLD: BOLD_FILE, CONDENSED_BOLD: CONDENSED_BOLD_FILE}


@cache
def register_fonts() -> None:
    folder = resources.files("assets").joinpath("fonts")
    for name, filename in _FILES.items():
        with resources.as_file(folder.joinpath(filename)) as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))


def text_width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


#: Where a hyphenated word may break: after its hyphen, before a letter.
_HYPHEN_BREAK = re.compile(r"(?<=-)(?=\w)")


def wrap_words(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap; a hyphenated word may also break after a hyphen ("Bosnie-" / "Herzégovine"); a
    piece wider than the box stays on its own line (the caller shrinks)."""
    lines: list[str] = []
    for word in text.split():
        for k, piece in enumerate(_HYPHEN_BREAK.split(word)):
            joined = f"{lines[-1]}{'' if k else ' '}{piece}" if lines else piece
            if lines and text_width(joined, font, size) <= max_width:
                lines[-1] = joined
            else:
                lines.append(piece)
    return lines or [""]


def fit_text(text: str, font: str, max_width: float, max_height: float, max_size: float,
             min_size: float = 4.0, max_lines: int = 3, leading: float = 1.15,
             shrink_first: bool = False) -> tuple[float, list[str]]:
    """The largest size (≤ max_size) at which ``text`` fits the box on one line, or wrapped onto at
    most ``max_lines`` lines; at ``min_size`` the lines are returned as they are (the smallest we print).

    ``shrink_first``: a label that fits on one line at any size down to ``min_size`` stays on one line;
    only one too long for that (a long translated name) is wrapped."""
    if shrink_first and max_lines > 1:
        size, lines = fit_text(text, font, max_width, max_height, max_size, min_size, 1, leading)
        if lines == [text] and text_width(text, font, size) <= max_width:
            return size, lines
    size = max_size
    while True:
        for n_lines in range(1, max_lines + 1):
            lines = [text] if n_lines == 1 else wrap_words(text, font, size, max_width)
            if len(lines) > n_lines:
                continue
            fits_wide = all(text_width(line, font, size) <= max_width for line in lines)
            fits_high = size * (1 + leading * (len(lines) - 1)) <= max_height
            if fits_wide and fits_high:
                return size, lines
        if size <= min_size:
            return min_size, wrap_words(text, font, min_size, max_width)[:max_lines]
        size = max(min_size, round(size - 0.25, 2))
