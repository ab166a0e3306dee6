"""The text-size setting (normal, large, largest): every word on every screen at 1×, 1.25× or 1.5×.

Flet 1.0.5 gives the app no text scale of its own, but Flutter's web client takes its text scale from the
page's root font size (16 px is 1×) and follows it live, explicit sizes included. So the setting is kept
on the device as the language is (`ft.SharedPreferences`, which a browser keeps in localStorage under
"flutter.<key>"), and a small script in the served page (`PAGE_SCRIPT`, put in by `with_page_script` and by
`tourpad publish`) sets the root font size from it: at load, and the moment the app stores a new choice.
A window with no page to scale (the desktop app, an app on a phone) gets the setting from the app itself:
its theme's text styles (`text_theme`) and every explicit text size on its screens (`scale_text`) are
multiplied by the setting's scale.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import Callable

import flet as ft

from scorer.locale import N_, _
from scorer.ui.named import menu_button

#: Where the device keeps the choice (the browser's storage, the phone's prefs).
TEXT_SIZE_KEY = "tourpad.text_size"
DEFAULT_TEXT_SIZE = "normal"
#: Each setting's root font size in px: the browser's default 16 px is Flutter's text scale 1.
TEXT_SIZES = {"normal": 16, "large": 20, "largest": 24}
#: Each setting's text scale (what Flutter's web client makes of the root font size).
TEXT_SCALES = {size: px / TEXT_SIZES[DEFAULT_TEXT_SIZE] for size, px in TEXT_SIZES.items()}
TEXT_SIZE_NAMES = {"normal": N_("Normal text"), "large": N_("Large text"), "largest": N_("Largest text")}
#: How long a choice waits for the device to keep it (s).
KEEP_SECONDS = 3.0
#: How long the first screen waits for the device to say the size it keeps (s): a busy phone or host may
#: take seconds, and until then the app draws for the normal size (titles it would not fit in the app bar
#: at the largest one stay there, cut short).
ASK_SECONDS = 10.0

PAGE_SCRIPT = """<script>
  // tourpad's text size (scorer/ui/text_size.py): the page's root font size, which Flutter reads as its text
  // scale, set from the choice the app keeps in localStorage; applied at load and whenever the app stores one.
  (() => {
    const key = "flutter.__KEY__", sizes = __SIZES__;
    const rule = document.createElement("style");
    const apply = (stored) => {
      let size = stored;
      try { size = JSON.parse(stored); } catch (e) { /* not JSON: taken as it is */ }
      const px = sizes[size] ? sizes[size] + "px" : "";
      rule.textContent = px ? `html { font-size: ${px} !important; }` : "";
      if (!rule.isConnected) document.head.appendChild(rule);
      document.documentElement.style.fontSize = px;  // Flutter watches this attribute for changes
    };
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (name, value) {
      setItem.call(this, name, value);
      if (this === window.localStorage && name === key) apply(value);
    };
    apply(window.localStorage.getItem(key));
  })();
</script>
""".replace("__KEY__", TEXT_SIZE_KEY).replace("__SIZES__", json.dumps(TEXT_SIZES))


def with_page_script(asgi_app):
    """The Flet ASGI app (a FastAPI app), its web page carrying PAGE_SCRIPT."""
    asgi_app.add_middleware(PageScriptMiddleware)
    return asgi_app


class PageScriptMiddleware:
    """Puts PAGE_SCRIPT into every HTML page the app serves (Flet's index.html, at any route), before
    </head>; everything else passes as it is."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        held: dict | None = None
        body = bytearray()

        async def patched_send(message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                headers = {k.lower(): v for k, v in message.get("headers", [])}
                if (message["status"] == 200 and headers.get(b"content-type", b"").startswith(b"text/html")
                        and b"content-encoding" not in headers):
                    held = message  # sent once the whole page is here, with its new length
                    return
                await send(message)
            elif message["type"] == "http.response.body" and held is not None:
                body.extend(message.get("body", b""))
                if message.get("more_body", False):
                    return
                page = bytes(body).replace(b"</head>", PAGE_SCRIPT.encode() + b"</head>", 1)
                headers = [(k, v) for k, v in held.get("headers", []) if k.lower() != b"content-length"]
                await send({**held, "headers": [*headers, (b"content-length", str(len(page)).encode())]})
                await send({"type": "http.response.body", "body": page})
            else:
                await send(message)

        await self.app(scope, receive, patched_send)


async def saved_text_size() -> str:
    """The size chosen on this device, else the default (also when the device does not answer)."""
    with contextlib.suppress(Exception):
        saved = await asyncio.wait_for(ft.SharedPreferences().get(TEXT_SIZE_KEY), ASK_SECONDS)
        if saved in TEXT_SIZES:
            return saved
    return DEFAULT_TEXT_SIZE


async def keep_text_size(size: str) -> None:
    """Keep `size` on this device; in a browser the page script applies it as it is stored."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ft.SharedPreferences().set(TEXT_SIZE_KEY, size), KEEP_SECONDS)


def text_size_menu(current: str, choose: Callable[[str], None]) -> ft.Control:
    """The text-size switch: each size by name, the current one checked; a pick calls `choose(size)`."""
    items = [ft.PopupMenuItem(content=ft.Semantics(identifier=f"text-size-{size}", content=ft.Text(_(name))),
                              checked=size == current, on_click=lambda e, size=size: choose(size))
             for size, name in TEXT_SIZE_NAMES.items()]
    return ft.Semantics(identifier="text-size", content=menu_button(ft.Icons.FORMAT_SIZE, _("Text size"), items))


#: The app bar's title: Material 3's title-large text, in bold.
TITLE_SIZE = 22
#: Material's app bar draws its title at most this much larger, whatever the text scale (Flutter's
#: `_kMaxTitleTextScaleFactor`).
APP_BAR_TITLE_MAX_SCALE = 1.34
#: A bold Roboto letter's advance, as a share of the font size, a little over the average of mixed text
#: ("Table 9GWU-VNN8 · Hôte" is 0.55): over-estimating only moves a title that would have fitted.
LETTER_EM = 0.6
#: A regular (not bold) Roboto letter's advance, as a share of the font size: a little over "Réception"'s (0.49).
REGULAR_LETTER_EM = 0.55


def text_width(text: str, size: float, em: float = LETTER_EM) -> float:
    """About how wide `text` is drawn on one line at font size `size` (px), each letter `em` of it: enough to
    tell whether it fits, erring wide (a word that may not fit is taken as not fitting)."""
    return len(text) * em * size


#: Where Material's app bar starts its title (after a back arrow, and without), and the room kept before
#: the actions (px).
TITLE_START_AFTER_BACK, TITLE_START, TITLE_END_GAP = 72, 16, 16


def title_fits(title: str, width: float, scale: float, back: bool, actions_width: float,
               capped: bool = True) -> bool:
    """Whether `title` fits on one line of an app bar `width` px wide at text scale `scale` (Flutter's app
    bar would cut it short with "…" otherwise); `capped`: Flutter scales the text (a browser), and caps
    the title's scale; the app's own scale (`own_text_scale`) is not capped."""
    room = width - (TITLE_START_AFTER_BACK if back else TITLE_START) - TITLE_END_GAP - actions_width
    drawn = min(scale, APP_BAR_TITLE_MAX_SCALE) if capped else scale
    return text_width(title, TITLE_SIZE * drawn) <= room


def action_width(control: ft.Control, scale: float) -> float:
    """How wide an app bar action is drawn (px): an icon's tap target, or a text button's label and icon."""
    from scorer.ui.named import TAP_TARGET

    while isinstance(control, ft.Semantics) and control.content is not None:
        control = control.content
    if isinstance(control, ft.TextButton) and isinstance(control.content, str):
        icon = 26 if control.icon is not None else 0  # 18 px and the gap after it
        return 24 + icon + text_width(control.content, 14 * scale)
    return TAP_TARGET



#: Material 3's text roles at scale 1 (px): the sizes Flutter's theme gives them.
MATERIAL_TEXT_SIZES = {
    "display_large": 57, "display_medium": 45, "display_small": 36,
    "headline_large": 32, "headline_medium": 28, "headline_small": 24,
    "title_large": 22, "title_medium": 16, "title_small": 14,
    "body_large": 16, "body_medium": 14, "body_small": 12,
    "label_large": 14, "label_medium": 12, "label_small": 11,
}


def own_text_scale(page: ft.Page, size: str) -> float:
    """The text scale the app applies itself: none in a browser (the page script scales the page's text);
    a desktop or phone app's window has no page to scale, so the app multiplies its text sizes."""
    return 1.0 if page.web else TEXT_SCALES.get(size, 1.0)


def text_theme(scale: float) -> ft.TextTheme | None:
    """Every Material text role `scale` times its size (None at scale 1: Flutter's own)."""
    if scale == 1:
        return None
    return ft.TextTheme(**{role: ft.TextStyle(size=px * scale) for role, px in MATERIAL_TEXT_SIZES.items()})


def scale_text(control, scale: float):
    """`control` with every explicit text size under it `scale` times its own (once: a control drawn again
    keeps the size it was given); components are left to scale what they render themselves."""
    from flet.components.component import Component

    if scale == 1 or control is None:
        return control
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, list):
            stack.extend(c)
            continue
        if not isinstance(c, ft.BaseControl) or isinstance(c, Component):
            continue
        if isinstance(c, ft.Text) and c.size is not None:
            own = c.__dict__.setdefault("_unscaled_size", c.size)
            c.size = own * scale
        for f in dataclasses.fields(c):
            if f.name.startswith("_"):
                continue
            value = getattr(c, f.name, None)
            if isinstance(value, ft.BaseControl) or (isinstance(value, list) and value
                                                     and isinstance(value[0], ft.BaseControl)):
                stack.append(value)
    return control
