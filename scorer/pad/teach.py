"""Teaching tourpad a player's own printing of the cards, the part with no Flet and no OpenCV: which cards
each teaching photo shows, the letters a person typed for a photo (checked before any photo is read), and
the progress line. The learning itself is `scorer.scan.faces` (OpenCV), which the CLI and the app's
"Teach tourpad your cards" screen import only when a photo is taught.
"""

from __future__ import annotations

from rules.edition import Edition
from rules.engine import HAND_SIZE as PHOTO_CARDS
from scorer.locale import _, ngettext


class TeachLettersError(ValueError):
    """The letters given for a teaching photo are not 7 different cards of the edition; the message says
    which letter is wrong and how."""


def teaching_rows(edition: Edition) -> list[str]:
    """The deck in rows of 7 cards, in the edition's order: one teaching photo each (four for 28 cards)."""
    return [edition.letters[k:k + PHOTO_CARDS] for k in range(0, len(edition.letters), PHOTO_CARDS)]


def check_letters(edition: Edition, typed: str) -> str:
    """The cards of one teaching photo as a person typed them (spaces and case do not matter): the letters
    in row order, left to right; TeachLettersError names the first problem."""
    letters = "".join(typed.split()).upper()
    unknown = sorted({letter for letter in letters if letter not in edition.letters}, key=letters.index)
    if unknown:
        raise TeachLettersError(ngettext(
            "{edition} has no card {letters} (its cards: {deck})",
            "{edition} has no cards {letters} (its cards: {deck})", len(unknown)).format(
            edition=edition.label, letters=", ".join(unknown), deck=edition.letters))
    twice = sorted({letter for letter in letters if letters.count(letter) > 1}, key=letters.index)
    if twice:
        raise TeachLettersError(ngettext(
            "{letters} is given twice: each card of the photo once, left to right",
            "{letters} are given twice: each card of the photo once, left to right", len(twice)).format(
            letters=", ".join(twice)))
    if len(letters) != PHOTO_CARDS:
        raise TeachLettersError(ngettext(
            "{n} letter given: a teaching photo shows {size} cards, give each one's letter, left to right",
            "{n} letters given: a teaching photo shows {size} cards, give each one's letter, left to right",
            len(letters)).format(n=len(letters), size=PHOTO_CARDS))
    return letters


def progress(edition: Edition, known: str) -> str:
    """"14 of 28 cards learned" for `known`, the letters learned so far."""
    # counted by what was learned: French says "1 carte apprise sur 28" but "14 cartes apprises sur 28"
    return ngettext("{n} of {size} cards learned", "{n} of {size} cards learned", len(known)).format(
        n=len(known), size=len(edition.letters))


def still_to_teach(letters: str, known: str) -> str:
    """The cards of `letters` (a deck, a photo's row) not learned yet, in their order."""
    return "".join(letter for letter in letters if letter not in known)


def opencv_missing(err: ImportError) -> str:
    """Why the publisher's cards cannot be read or taught here: OpenCV is not installed (lower case, to follow
    "error:" on the command line; a screen starts it with a capital, as `sentence` does)."""
    return _("reading the publisher's cards needs OpenCV, which is not installed here ({error}): "
             "pip install opencv-python-headless").format(error=err)


def sentence(problem: str) -> str:
    """A problem worded to follow "error:" or "--letters X:" on the command line, as a sentence of its own."""
    return problem[:1].upper() + problem[1:]
