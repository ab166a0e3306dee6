"""Our vector pictograms (``assets/icons/*.svg``) read into shapes: names, files and path operations. No
reportlab here, so the app's screens can use it; ``printables.badges`` draws the shapes onto a PDF canvas.

The SVG files are ours and deliberately simple: a 100 × 100 viewBox, one colour (``currentColor``), and
details "knocked out" in the badge colour with ``class="knock"``. Only the elements and path commands
used there are understood (circle, ellipse, rect, line, polyline, polygon, path with M L H V C Q Z in
either case); anything else is an error, so a new icon cannot silently draw half a picture. The app can
show the same files as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xml.etree.ElementTree as ET

_SVG_NS = "{http://www.w3.org/2000/svg}"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")

#: Other names an edition or deck pack may use for one of our pictograms (plurals are folded already).
ALIASES = {"mailbox": "mail-box", "bigfoot": "big-foot", "flag": "us-flag", "usflag": "us-flag",
           "eagle": "bald-eagle", "grizzly": "grizzly-bear", "bear": "grizzly-bear", "cow": "cattle",
           "jersey": "football-jersey", "cap": "baseball-cap", "hike": "hiking", "bike": "bicycle",
           "leave": "leaf", "aeroplane": "plane", "airplane": "plane", "ship": "boat", "liquor": "spirit"}


class IconError(ValueError):
    """An icon file we cannot draw (unsupported element or path command)."""


@dataclass(frozen=True, slots=True)
class Shape:
    kind: str  # "path" for everything; circles/ellipses/rects are turned into path operations
    ops: tuple[tuple, ...]
    fill: bool
    stroke: bool
    stroke_width: float
    knock: bool


def icon_key(name: str) -> str:
    """File stem for an icon name: 'Indigenous Culture' → 'indigenous-culture', 'Platypuses' → 'platypus';
    '' when we have no pictogram for it."""
    slug = "-".join(re.findall(r"[a-z0-9]+", name.casefold()))
    candidates = [slug]
    for plural, singular in (("ies", "y"), ("es", ""), ("s", "")):
        if slug.endswith(plural):
            candidates.append(slug[: -len(plural)] + singular)
    candidates += [ALIASES.get(c.replace("-", ""), "") for c in candidates]
    return next((c for c in candidates if c in available_icons()), "")


def _icons_folder():
    return resources.files("assets").joinpath("icons")


@cache
def available_icons() -> frozenset[str]:
    return frozenset(p.name[:-4] for p in _icons_folder().iterdir() if p.name.endswith(".svg"))


def has_icon(name: str) -> bool:
    return icon_key(name) in available_icons()


@cache
def icon_svg_text(key: str) -> str:
    """The SVG file of a pictogram (a key from ``icon_key``), as text."""
    return _icons_folder().joinpath(f"{key}.svg").read_text(encoding="utf-8")


@cache
def load_icon(key: str) -> tuple[Shape, ...]:
    return parse_svg(icon_svg_text(key), key)


def parse_svg(text: str, where: str = "icon") -> tuple[Shape, ...]:
    import xml.etree.ElementTree as ET  # here: the web app's home screen draws no icon, and its start pays for it

    root = ET.fromstring(text)
    shapes = []
    for el in root.iter():
        tag = el.tag.removeprefix(_SVG_NS)
        if tag in ("svg", "g", "title", "desc"):
            continue
        ops = _element_ops(el, tag, where)
        fill_attr = el.get("fill", "none" if tag in ("line", "polyline") else "currentColor")
        stroke_attr = el.get("stroke", "none")
        shapes.append(Shape("path", ops, fill_attr != "none", stroke_attr != "none",
                            float(el.get("stroke-width", "1")), el.get("class") == "knock"))
    return tuple(shapes)


def _nums(text: str | None) -> list[float]:
    return [float(v) for v in _NUMBER.findall(text or "")]


def _ellipse_ops(cx: float, cy: float, rx: float, ry: float) -> tuple[tuple, ...]:
    k = 0.5523  # cubic approximation of a quarter circle
    return (("M", cx + rx, cy),
            ("C", cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry),
            ("C", cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy),
            ("C", cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry),
            ("C", cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy), ("Z",))


def _element_ops(el: ET.Element, tag: str, where: str) -> tuple[tuple, ...]:
    g = lambda a: float(el.get(a, "0"))  # noqa: E731
    if tag == "circle":
        return _ellipse_ops(g("cx"), g("cy"), g("r"), g("r"))
    if tag == "ellipse":
        return _ellipse_ops(g("cx"), g("cy"), g("rx"), g("ry"))
    if tag == "rect":
        x, y, w, h, r = g("x"), g("y"), g("width"), g("height"), min(g("rx"), g("width") / 2, g("height") / 2)
        if not r:
            return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
        k = 0.5523 * r
        return (("M", x + r, y), ("L", x + w - r, y), ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
                ("L", x + w, y + h - r), ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h),
                ("L", x + r, y + h), ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
                ("L", x, y + r), ("C", x, y + r - k, x + r - k, y, x + r, y), ("Z",))
    if tag == "line":
        return (("M", g("x1"), g("y1")), ("L", g("x2"), g("y2")))
    if tag in ("polyline", "polygon"):
        v = _nums(el.get("points"))
        pts = list(zip(v[::2], v[1::2], strict=True))
        ops = [("M", *pts[0])] + [("L", *p) for p in pts[1:]]
        return tuple(ops + ([("Z",)] if tag == "polygon" else []))
    if tag == "path":
        return _path_ops(el.get("d", ""), where)
    raise IconError(f"{where}: unsupported SVG element <{tag}>")


def _path_ops(d: str, where: str) -> tuple[tuple, ...]:
    """Absolute M/L/C/Z operations from a path's d attribute (Q becomes C, H/V become L)."""
    tokens = _PATH_TOKEN.findall(d)
    ops: list[tuple] = []
    x = y = sx = sy = 0.0
    i, cmd = 0, ""
    arity = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                ops.append(("Z",))
                x, y = sx, sy
                continue
        if cmd.upper() not in arity:
            raise IconError(f"{where}: unsupported path command {cmd!r}")
        n = arity[cmd.upper()]
        args = [float(t) for t in tokens[i:i + n] if not t.isalpha()]
        if len(args) < n:
            raise IconError(f"{where}: path command {cmd!r} needs {n} numbers")
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "M":
            x, y = (x + args[0], y + args[1]) if rel else args
            sx, sy = x, y
            ops.append(("M", x, y))
            cmd = "l" if rel else "L"  # further pairs after M are line-tos
        elif up == "L":
            x, y = (x + args[0], y + args[1]) if rel else args
            ops.append(("L", x, y))
        elif up == "H":
            x = x + args[0] if rel else args[0]
            ops.append(("L", x, y))
        elif up == "V":
            y = y + args[0] if rel else args[0]
            ops.append(("L", x, y))
        elif up == "C":
            p = [a + (x if k % 2 == 0 else y) * rel for k, a in enumerate(args)]
            ops.append(("C", *p))
            x, y = p[4], p[5]
        elif up == "Q":
            qx, qy, ex, ey = [a + (x if k % 2 == 0 else y) * rel for k, a in enumerate(args)]
            ops.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
            x, y = ex, ey
    return tuple(ops)
