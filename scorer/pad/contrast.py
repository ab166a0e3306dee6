"""WCAG 2.x contrast between two sRGB colours ('#RRGGBB'), and the text colour that reads best on one.

The screens' colours are checked against these numbers by tests/test_contrast.py: 4.5:1 for normal text,
3:1 for large text and for the parts of a control a player must see (WCAG AA, 1.4.3 and 1.4.11).
"""

from __future__ import annotations

#: WCAG AA: normal text; large text (24 px, or 18.7 px bold) and the visible parts of controls.
AA_TEXT = 4.5
AA_LARGE = 3.0
BLACK, WHITE = "#000000", "#FFFFFF"


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """WCAG's relative luminance of '#RRGGBB' (0 black … 1 white)."""
    hex_digits = colour.lstrip("#")
    if len(hex_digits) != 6:
        raise ValueError(f"not a #RRGGBB colour: {colour!r}")
    r, g, b = (_channel(int(hex_digits[i:i + 2], 16)) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground: str, background: str) -> float:
    """From 1 (the same colour) to 21 (black on white); the order of the two does not matter."""
    light, dark = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_on(background: str) -> str:
    """Black or white, whichever has the higher contrast on `background` (a region's or a tile's colour)."""
    return BLACK if contrast_ratio(BLACK, background) >= contrast_ratio(WHITE, background) else WHITE
