"""One function for every name or label a person types: player and seat names, deck and board pack names.

`clean_name` normalises (NFC, trimmed, runs of spaces collapsed to one) and checks the text, refusing it
with a message that names the problem. What it decides:

- Length counts what a reader sees as one character (grapheme-ish): a letter with its combining marks,
  an emoji with its skin tone / variation selector / ZWJ-joined partners, a flag (two regional
  indicators, or the black flag with its tag characters) each count once. 1 to 24 by default.
- Control and format characters (Unicode categories Cc, Cf, Zl, Zp: NUL, line breaks, ESC, bidi
  overrides, zero-width spaces, soft hyphens…) are refused, with three exceptions that are part of how
  visible text is written: ZERO WIDTH JOINER between two emoji (family, profession and flag sequences),
  ZERO WIDTH JOINER / NON-JOINER between two letters (Persian, Indic scripts need them to shape words),
  and tag characters completing a black-flag emoji (England, Scotland, Wales).
- A name must draw something: at least one character that is not a combining mark, a space or
  separator, a control or format character, a default-ignorable code point, or a blank filler (the
  Hangul fillers are letters by category and the braille blank a symbol, yet all draw nothing).
  A lone U+0301 (a combining accent), U+FE0F (a variation selector), U+3164 or U+2800 is refused as empty.
- Nothing visible is refused: every script's letters, digits, punctuation, symbols, private-use and
  not-yet-assigned code points (a newer emoji than this Python knows) are welcome. Lone surrogates are
  not text and are refused.

Pure Python (its only import is the rules' message catalog, for the refusals' words): the lowest layer, for rules,
the app, the table host and the packs alike.
`for_terminal` is its counterpart on the way out: text shown in a terminal or log, escaped.
"""

from __future__ import annotations

import unicodedata

from rules.locale import _

NAME_LENGTH = 24
#: Deck and board pack names are a game box's title, not a person's: `tourpad board export` proposes
#: "Race Around Europe (tourpad board) (my colours)" (47).
PACK_NAME_LENGTH = 64
#: A pack's id names its file in the data folder (`<id>.toml`): far below any file system's name limit.
PACK_ID_LENGTH = 64
#: Game records written before names were limited to 24 (they allowed 40) must still load.
RECORDED_NAME_LENGTH = 40

ZWNJ, ZWJ = "\u200c", "\u200d"
BLACK_FLAG = "\U0001f3f4"
TAG_FIRST, CANCEL_TAG = "\U000e0020", "\U000e007f"
SKIN_TONES = range(0x1F3FB, 0x1F400)
REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
#: Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 15.1), as ranges
#: of code points, first and last included: characters a renderer shows as nothing at all when it has no
#: glyph for them (variation selectors, fillers, joiners, invisible operators, tags...). Python's
#: unicodedata has no derived properties, so the ranges are written out here.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
#: Characters that are letters or symbols by category yet draw an empty cell: the Hangul fillers
#: (also default-ignorable) and the braille pattern blank (a symbol, not ignorable).
BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Categories that draw nothing on their own: marks (they decorate a base), separators, controls,
#: format characters and lone surrogates.
DRAWS_NOTHING_ALONE = frozenset({"Mn", "Mc", "Me", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs"})
SPACES = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")  # what str.split() would swallow


class TextError(ValueError):
    """Typed text that cannot be a name; the message says what is wrong with it."""


def _named_problem(ch: str) -> str:
    """What a refused character is, in words a player understands."""
    code = f"U+{ord(ch):04X}"
    if ch in "\n\r\x0b\x0c\x85\u2028\u2029":
        return _("a line break")
    if ch == "\t":
        return _("a tab")
    if ch == "\x00":
        return _("a NUL character (U+0000)")
    if ch == "\x1b":
        return _("an escape character (U+001B, used by terminal escape sequences)")
    if ch in BIDI_CONTROLS:
        return _("a text-direction control character ({code})").format(code=code)
    if ch in ZERO_WIDTH:
        return _("an invisible zero-width character ({code})").format(code=code)
    if unicodedata.category(ch) == "Cs":
        return _("a broken character (lone surrogate {code})").format(code=code)
    if unicodedata.category(ch) == "Cc":
        return _("a control character ({code})").format(code=code)
    return _("an invisible formatting character ({code})").format(code=code)


def _is_pictograph(ch: str) -> bool:
    """Emoji-ish: the symbols ZWJ sequences join (So covers emoji; Sk covers skin tones)."""
    return unicodedata.category(ch) in ("So", "Sk") or 0x1F000 <= ord(ch) <= 0x1FAFF


def _is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


def _refused_character(text: str) -> str | None:
    """The first character that may not be in a name, or None."""
    in_flag_tags = False
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if TAG_FIRST <= ch <= CANCEL_TAG:
            if i > 0 and (text[i - 1] == BLACK_FLAG or in_flag_tags):
                in_flag_tags = ch != CANCEL_TAG
                continue
            return ch
        in_flag_tags = False
        if ch in (ZWJ, ZWNJ):
            before, after = text[i - 1:i], text[i + 1:i + 2]
            if before and after:
                if _is_letter(before) and _is_letter(after):
                    continue
                if ch == ZWJ and _is_pictograph(after) and (
                        _is_pictograph(before) or before == "\ufe0f"):
                    continue
            return ch
        if category in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            return ch
    return None


def is_default_ignorable(ch: str) -> bool:
    code = ord(ch)
    return any(first <= code <= last for first, last in DEFAULT_IGNORABLE)


def draws(ch: str) -> bool:
    """Whether `ch` on its own puts ink on the screen: a letter, digit, punctuation, symbol, private-use
    or not-yet-assigned character, but not a mark, space, control, format or default-ignorable character,
    nor a blank filler."""
    return (unicodedata.category(ch) not in DRAWS_NOTHING_ALONE and ch not in BLANK_FILLERS
            and not is_default_ignorable(ch))


def graphemes(text: str) -> list[str]:
    """`text` cut where a reader sees one character end and the next begin (grapheme clusters,
    approximately): a letter with its marks, an emoji with its skin tone, variation selector or ZWJ
    partners, a flag's two regional indicators or its tags each stay whole."""
    clusters: list[str] = []
    previous = ""
    regional_pending = False
    for ch in text:
        code = ord(ch)
        joins_previous = (
            previous == ZWJ
            or unicodedata.category(ch) in ("Mn", "Mc", "Me")
            or code in SKIN_TONES
            or ch in (ZWJ, ZWNJ)
            or TAG_FIRST <= ch <= CANCEL_TAG
            or (code in REGIONAL_INDICATORS and regional_pending))
        # a regional indicator opens a flag; the next one closes it (joins), a third opens another
        regional_pending = code in REGIONAL_INDICATORS and not (joins_previous and regional_pending)
        if joins_previous and clusters:
            clusters[-1] += ch
        else:
            clusters.append(ch)
        previous = ch
    return clusters


def visible_length(text: str) -> int:
    """How many characters a reader sees (grapheme clusters, approximately)."""
    return len(graphemes(text))


def drawn_length(text: str) -> int:
    """How many of the characters a reader sees draw something: a cluster counts when one of its code
    points `draws` (a lone accent or filler does not). 0 for a name that would look empty."""
    return sum(1 for cluster in graphemes(text) if any(draws(ch) for ch in cluster))


def clean_name(text: str, what: str | None = None, longest: int = NAME_LENGTH) -> str:
    """`text` as a name: NFC, trimmed, inner spaces collapsed; raises TextError naming the problem.

    `what` names the field in the message ("a player name", "a pack name"), in the reader's language;
    by default "a name"."""
    if what is None:
        what = _("a name")
    if not isinstance(text, str):
        raise TextError(_("{what} must be text").format(what=what))
    text = unicodedata.normalize("NFC", text)
    bad = _refused_character(text)
    if bad is not None:
        raise TextError(_("{what} cannot contain {problem}").format(what=what, problem=_named_problem(bad)))
    text = " ".join(part for part in text.replace("\u00a0", " ").split(" ") if part)
    text = text.strip()
    if not drawn_length(text):
        raise TextError(_("{what} needs at least one visible character").format(what=what))
    length = visible_length(text)
    if length > longest:
        raise TextError(_("{what} has at most {longest} characters; {start}… has {length}").format(
            what=what, longest=longest, start=repr(text[:longest]), length=length))
    return text


def for_terminal(text: object) -> str:
    """Text for a terminal or a log line: control, format and line-separator characters escaped
    (\\n, \\x1b, \\u202e…), everything visible kept as it is."""
    text = str(text)
    if _refused_character(text) is None:
        return text
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs") or TAG_FIRST <= ch <= CANCEL_TAG:
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)
