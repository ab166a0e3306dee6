"""Our SVG pictograms (``assets/icons``) made ready for the app: the printables' name → file lookup,
then the file recoloured with concrete colours.

The files paint in ``currentColor`` and mark details ``class="knock"`` (drawn in the badge colour).
Flutter's SVG renderer knows neither a current colour nor CSS classes (both render black, checked in
the offline web client), so every shape gets an explicit fill / stroke here. Shapes fill even-odd, as
the printables draw them.
"""

from __future__ import annotations

from functools import lru_cache

from printables.icons import icon_key, icon_svg_text

_SVG_NS = "http://www.w3.org/2000/svg"
_STRUCTURE = {"svg", "g", "title", "desc"}
_OPEN_SHAPES = {"line", "polyline"}  # no fill unless the file says so


def pictogram_svg(name: str, ink: str, paper: str) -> bytes | None:
    """The pictogram for an icon name ('Koalas', 'Indigenous Culture') in ``ink`` with its knocked-out
    details in ``paper``; None when we have none for that name (e.g. an imported pack's own icons)."""
    key = icon_key(name)
    return _recoloured(key, ink, paper) if key else None


@lru_cache(maxsize=512)
def _recoloured(key: str, ink: str, paper: str) -> bytes:
    # imported at the first pictogram, not at the web app's start (0.09 s there, before the home screen)
    import xml.etree.ElementTree as ET

    ET.register_namespace("", _SVG_NS)
    root = ET.fromstring(icon_svg_text(key))
    root.attrib.pop("fill", None)
    for el in root.iter():
        tag = el.tag.removeprefix("{" + _SVG_NS + "}")
        if tag in _STRUCTURE:
            continue
        colour = paper if el.attrib.pop("class", "") == "knock" else ink
        fill = el.get("fill", "none" if tag in _OPEN_SHAPES else "currentColor")
        el.set("fill", colour if fill == "currentColor" else fill)
        if el.get("stroke") == "currentColor":
            el.set("stroke", colour)
        el.set("fill-rule", "evenodd")
    return ET.tostring(root, encoding="utf-8")
