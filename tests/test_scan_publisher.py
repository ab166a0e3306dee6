"""Reading the publisher's printed cards (no QR code): finding and ordering the cards, the number as a
checksum, teaching, and the messages for a row that is not one player's 7 cards.

Photos come from the publisher-style generator the benchmark uses (benchmarks/scan_publisher_photos.py),
small (1600 × 1200) and well framed so the tests stay fast; each one is a real JPEG through OpenCV.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks import scan_publisher_photos as photos
from scorer.packs import resolve_edition
from scorer.scan import faces, find, taught
from scorer.scan.image import ScanImageError
from scorer.scan.photo import scan_row
from scorer.scan.rows import letter_problems

SIZE = (1600, 1200)
#: Reading letters needs a phone-sized photo (5 MP, as the bench): at 2 MP the corner marks are a few pixels.
BIG = (2592, 1944)
ROW = tuple("KSHN@LQ")
STYLE = photos.deck_style(3)


def shot(edition, letters=ROW, index: int = 0, **options) -> bytes:
    options = {"scale": 1.2, "blur": 0.3, "gap_mm": 5, "photo_size": SIZE, "across": False, **options}
    return photos.photo(edition, STYLE, 6, index, tuple(letters), count=len(letters), **options).jpeg


def rectified(face) -> np.ndarray:
    """A rendered face as the reader's rectified card would show it (grey, CARD_PX less the margin)."""
    grey = cv2.cvtColor(np.asarray(face.convert("RGB")), cv2.COLOR_RGB2GRAY)
    return cv2.resize(grey, (63 * find.PX_PER_MM, 88 * find.PX_PER_MM), interpolation=cv2.INTER_AREA)


def cut(face) -> np.ndarray:
    """A rendered face cut out as the reader cuts a found card: with its margin (CARD_PX)."""
    pad = find.PAD_MM * find.PX_PER_MM
    return cv2.copyMakeBorder(rectified(face), pad, pad, pad, pad, cv2.BORDER_REPLICATE)


def order_fit(cards, edition, letters) -> dict[str, float]:
    """How well the found cards (in the reader's order) match the laid-out faces taken in order, reversed, or
    shifted by one card: whole-card likeness, summed along the row."""
    pad = find.PAD_MM * find.PX_PER_MM  # the reader cuts each card with a margin around it

    def small(image):
        image = cv2.resize(image, (63, 88), interpolation=cv2.INTER_AREA).astype(np.float32)
        return (image - image.mean()) / (image.std() + 1e-3)

    found = [small(card.image[pad:-pad, pad:-pad]) for card in cards]
    laid_out = [small(rectified(photos.face_of(edition, letter, STYLE))) for letter in letters]
    like = np.array([[float((f * g).mean()) for g in laid_out] for f in found])
    n = len(letters)
    orders = {"in order": list(range(n)), "reversed": list(reversed(range(n))),
              "shifted left": [(i + 1) % n for i in range(n)], "shifted right": [(i - 1) % n for i in range(n)]}
    return {name: float(sum(like[i, j] for i, j in enumerate(order))) for name, order in orders.items()}


# --- Finding and ordering -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("turn", "how"), [(0, "left to right"), (180, "right to left, from across the table"),
                                           (28, "at an angle")])
def test_cards_are_found_and_ordered_throw_first(australia, turn, how):
    row = find.find_cards(find.load_rgb(shot(australia, turn=turn, index=turn)))
    assert len(row.cards) == 7, how
    assert row.upside_down == (abs(turn) > 90), how
    fit = order_fit(row.cards, australia, ROW)
    assert max(fit, key=fit.get) == "in order", (how, fit)


def test_touching_cards_are_split_at_their_edges(australia):
    row = find.find_cards(find.load_rgb(shot(australia, gap_mm=0, index=3)))
    assert len(row.cards) == 7
    fit = order_fit(row.cards, australia, ROW)
    assert max(fit, key=fit.get) == "in order", fit


def test_cards_the_outline_missed_are_found_beyond_it(australia, monkeypatch):
    # A cloth of the cards' own colours can hide most of the row from its outline (here: the middle two
    # cards' worth only); the strip grows beyond the outline's ends for as long as the comb finds cards there.
    whole = find._row_quad

    def middle_only(mask):
        top_left, top_right, bottom_right, bottom_left = whole(mask)
        return np.float32([top_left + 0.35 * (top_right - top_left), top_left + 0.65 * (top_right - top_left),
                           bottom_left + 0.65 * (bottom_right - bottom_left),
                           bottom_left + 0.35 * (bottom_right - bottom_left)])

    monkeypatch.setattr(find, "_row_quad", middle_only)
    row = find.find_cards(find.load_rgb(shot(australia, index=4)))
    assert len(row.cards) == 7
    fit = order_fit(row.cards, australia, ROW)
    assert max(fit, key=fit.get) == "in order", fit


def strip_of_cards(scale: float, pitch_mm: float, beyond_mm: float) -> tuple[np.ndarray, list[float]]:
    """A rectified strip (PX_PER_MM) of 7 cards `scale` times their printed size, `pitch_mm` apart, on a dark
    table: a ringed number circle 8 mm in from each card's top-left corner (times `scale`), icons (discs)
    down the right side. The strip starts 4 mm before the row and ends `beyond_mm` after it. Returns the
    strip and where each number circle's centre is along it (mm)."""
    mm = find.PX_PER_MM
    rng = np.random.default_rng(5)
    strip = rng.normal(60, 6, (120 * mm, 600 * mm)).astype(np.float32)
    circles = []
    for card in range(7):
        corner = np.array([4 + card * pitch_mm, 12.0])
        cv2.rectangle(strip, tuple(round(v * mm) for v in corner),
                      tuple(round(v * mm) for v in corner + np.array([63, 88]) * scale), 170, cv2.FILLED)
        # the last card's picture: darker from 48 mm in, a straight boundary the card's height (a building)
        if card == 6:
            cv2.rectangle(strip, tuple(round(v * mm) for v in corner + np.array([48, 0]) * scale),
                          tuple(round(v * mm) for v in corner + np.array([63, 88]) * scale), 120, cv2.FILLED)
        for icon in range(3):
            middle = corner + np.array([56, 10 + 11 * icon]) * scale
            cv2.circle(strip, tuple(round(v * mm) for v in middle), round(4.5 * scale * mm), 90, cv2.FILLED)
            cv2.circle(strip, tuple(round(v * mm) for v in middle), round(4.5 * scale * mm), 250, max(1, mm // 3))
        number = corner + 8 * scale
        cv2.circle(strip, tuple(round(v * mm) for v in number), round(5.5 * scale * mm), 245, cv2.FILLED)
        cv2.circle(strip, tuple(round(v * mm) for v in number), round(5.5 * scale * mm), 30, max(1, mm // 2))
        circles.append(float(number[0]))
    end = 4 + 6 * pitch_mm + 63 * scale + beyond_mm
    return np.clip(strip[:, :round(end * mm)], 0, 255).astype(np.uint8), circles


@pytest.mark.parametrize(("scale", "pitch_mm", "how"), [
    (0.9, 55.5, "the strip shows the row smaller than printed (a slanted photo), the cards overlapping by 1 mm"),
    (1.07, 70, "larger than printed, with gaps: the last card's top icon lies a short pitch (51 mm) beyond its "
               "circle, with a straight edge in its picture 8 mm to the icon's left, as a card's left edge")])
def test_the_comb_takes_one_circle_a_card(scale, pitch_mm, how):
    mm = find.PX_PER_MM
    strip, circles = strip_of_cards(scale, pitch_mm, beyond_mm=70)
    band = strip[6 * mm:]  # the comb's band starts 6 mm above the row's top
    comb = find._circle_comb(band, mm, find._left_edges(strip[12 * mm: 100 * mm]), (0, 70))
    found = [x / mm for x, _y in comb.centres]
    assert len(found) == 7, (how, found)
    assert np.allclose(found, circles, atol=1.5), (how, found, circles)


def test_a_blank_end_beyond_the_row_is_dropped_and_a_bad_cut_gets_a_second_look(australia, tmp_path,
                                                                                  monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    taught.save_deck(australia.id, taught_deck(australia, australia.letters))
    cards = [find.FoundCard(cut(photos.face_of(australia, x, STYLE)), (i * 100.0, 0.0))
             for i, x in enumerate(ROW)]
    # The third card's own outline was fitted to a neighbour's edges (cut 32 mm off); cut square from its
    # circle it is whole.
    off = np.roll(cards[2].image, -32 * find.PX_PER_MM, axis=1)
    cards[2] = find.FoundCard(off, cards[2].centre, cards[2].image)
    # Beyond the last card, the table's pattern made an eighth "card" (edges the size of one, no face).
    table = np.random.default_rng(1).normal(110, 25, cards[0].image.shape).clip(0, 255).astype(np.uint8)
    found = find.FoundRow((*cards, find.FoundCard(table, (700.0, 0.0))), False)
    monkeypatch.setattr(faces, "find_cards", lambda rgb, gray=None: found)
    assert faces.read_card(off, australia, taught.load_deck(australia.id)).letter is None
    read = faces.read_row(b"", australia, rgb=np.zeros((8, 8, 3), np.uint8))
    assert [reading.letter for reading in read.readings] == list(ROW)
    assert len(read.cards) == 7
    # With more cards unread, the row itself may have been found wrong: it stays too long (and is not shown).
    blurred = [find.FoundCard(cv2.GaussianBlur(card.image, (0, 0), 12), card.centre) for card in cards[4:6]]
    found = find.FoundRow((*cards[:4], *blurred, cards[6], find.FoundCard(table, (700.0, 0.0))), False)
    read = faces.read_row(b"", australia, rgb=np.zeros((8, 8, 3), np.uint8))
    assert len(read.cards) == 8 and [reading.letter for reading in read.readings][-4:] == [None, None, "Q", None]
    # A real eighth card (one the deck knows) is kept: the row is then too long, and the player is told so.
    extra = find.FoundCard(cut(photos.face_of(australia, "A", STYLE)), (700.0, 0.0))
    found = find.FoundRow((*cards, extra), False)
    assert [reading.letter for reading in faces.read_row(b"", australia, rgb=np.zeros((8, 8, 3), np.uint8)
                                                              ).readings] == [*ROW, "A"]


# --- Reading a card: templates and the number as checksum ---------------------------------------------------

def taught_deck(edition, letters: str) -> dict:
    deck: dict = {}
    faces.learn_cards(deck, [cut(photos.face_of(edition, x, STYLE)) for x in letters], letters)
    return deck


def test_a_taught_card_reads_and_another_editions_card_is_named(australia):
    europe = resolve_edition("europe")
    deck = taught_deck(australia, australia.letters)
    assert faces.read_card(cut(photos.face_of(australia, "E", STYLE)), australia, deck).letter == "E"
    # Europe's A printed in the same style: its corner letter looks like Australia's A, but it carries
    # number 3, not Australia's 1: the letter is not trusted, and the card is named as Europe's.
    assert europe.numbers[europe.card_index("A")] != australia.numbers[australia.card_index("A")]
    reading = faces.read_card(cut(photos.face_of(europe, "A", STYLE)), australia, deck)
    assert reading.letter is None
    assert reading.problem == "card A with number 3 is a card of Boomerang: Europe, not of Boomerang: Australia"


def test_the_number_rejects_a_misread_letter(australia):
    deck = taught_deck(australia, australia.letters)
    # Australia's E (number 4) with a 2 in its circle: as if the letter had been misread. No bundled edition
    # has an E numbered 2, so it is called a misread, and the position stays unread.
    card = australia.cards[australia.card_index("E")]
    icons = photos.face_of(australia, "E", STYLE)  # the same face otherwise
    misprinted = photos.card_face(australia.id, "E", card.site, 2, _icons(australia, "E"), STYLE)
    assert misprinted.size == icons.size
    reading = faces.read_card(cut(misprinted), australia, deck)
    assert reading.letter is None
    assert reading.problem == ("the card reads E with number 2, but Boomerang: Australia's E has number 4: "
                               "misread, type it in")


def _icons(edition, letter: str) -> tuple[str, ...]:
    card = edition.cards[edition.card_index(letter)]
    return tuple(family.icons[index].name for family, index in
                 ((edition.collection, card.collection), (edition.pairs, card.pairs), (edition.choice, card.choice))
                 if index >= 0)


def test_a_card_seen_upside_down_is_not_named(australia):
    # Keypoints alone would match a card turned round (they do not care which way is up); the cut is upright,
    # so a placement turned round is a coincidence, and a row read the wrong way up reads nothing, not wrong.
    deck = taught_deck(australia, australia.letters)
    card = cut(photos.face_of(australia, "K", STYLE))
    assert faces.read_card(card, australia, deck).letter == "K"
    assert faces.read_card(np.ascontiguousarray(card[::-1, ::-1]), australia, deck).letter is None


def test_how_firmly_keypoints_name_a_card():
    identified = faces._identified
    assert identified([(40, "K"), (3, "B")]) == ("K", True)  # many, far more than any other card
    assert identified([(6, "K"), (1, "B")]) == ("K", True)  # several, and no other card agrees on any
    assert identified([(3, "K")]) == ("K", False)  # faint: its number must confirm it
    assert identified([(4, "K"), (3, "B")]) == (None, False)  # two cards about as likely: neither
    assert identified([(12, "K"), (6, "B")]) == (None, False)
    assert identified([]) == (None, False)


def test_the_taught_keypoints_matched_are_the_brute_force_matchers():
    """The taught deck's keypoints are matched by one matrix product, not OpenCV's brute-force matcher: the same
    nearest taught keypoint and Lowe's ratio test kept for the same keypoints, on SIFT's own descriptors of
    three cards (two taught, one read)."""
    edition = resolve_edition("australia")
    faces_of = {letter: cut(photos.face_of(edition, letter, STYLE)) for letter in "KSH"}
    taught = {letter: faces._features(card) for letter, card in faces_of.items() if letter != "H"}
    keypoints = faces._Keypoints(taught)
    points, descriptors = faces._features(cv2.GaussianBlur(faces_of["K"], (0, 0), 1.5))
    matcher = cv2.BFMatcher(cv2.NORM_L2)
    matcher.add([taught[letter][1] for letter in keypoints.letters])
    expected = {(pair[0].queryIdx, keypoints.letters[pair[0].imgIdx], pair[0].trainIdx)
                for pair in matcher.knnMatch(descriptors, k=2)
                if pair[0].distance < faces.MATCH_RATIO * pair[1].distance}
    nearest, first, second = keypoints._nearest_two(descriptors)
    kept = np.flatnonzero(first < faces.MATCH_RATIO ** 2 * second)
    assert {(int(q), keypoints.letters[keypoints.card_of[nearest[q]]], int(keypoints.index_in_card[nearest[q]]))
            for q in kept} == expected
    assert len(expected) > 20  # a blurred copy of a taught card still matches it
    assert keypoints.agreeing(points, descriptors)[0][1] == "K"
    assert faces._Keypoints({}).agreeing(points, descriptors) == []


class _Look:
    """One look's answer (`_Keypoints.agreeing`), fixed."""

    def __init__(self, found):
        self.found = found

    def agreeing(self, points, descriptors):
        return self.found


@pytest.mark.parametrize(("sharp", "blurred", "named"), [
    ([(12, "K"), (2, "B")], [(3, "B")], ("K", True)),  # the sharp look names it firmly: the blurred one unasked
    ([(3, "F")], [(10, "H"), (1, "F")], ("H", True)),  # a blurred photo: the blurred look names it firmly
    ([(3, "K")], [(3, "K")], ("K", False)),  # both looks name it faintly: the number must confirm it
    ([(4, "K")], [], ("K", False)),  # one look, four keypoints
    ([], [(4, "K")], ("K", False)),
    ([(3, "K")], [], (None, False)),  # one look, three keypoints: a look-alike by chance (a card never taught)
    ([], [(3, "K")], (None, False)),
    ([(4, "K")], [(3, "B")], (None, False)),  # the looks name two cards
    ([(6, "K"), (4, "B")], [(4, "B")], (None, False)),  # the sharp look prefers another card
], ids=["sharp firm", "blurred firm", "both faint", "sharp alone", "blurred alone", "three sharp", "three blurred",
        "two cards", "sharp prefers another"])
def test_a_card_is_named_by_the_sharp_or_the_blurred_look(monkeypatch, sharp, blurred, named):
    monkeypatch.setattr(faces, "_features", lambda card: (np.zeros((0, 2)), np.zeros((0, 128))))
    index = faces._DeckIndex({})
    index.sharp, index.blurred = _Look(sharp), _Look(blurred)
    _found, letter, firm = index.identify(np.zeros((1, 1), np.uint8))
    assert (letter, firm) == named


@pytest.fixture(scope="module")
def four_photo_deck(australia, tmp_path_factory) -> bytes:
    """Australia's deck file, taught from the four photos the teach screen asks for (taught once: two tests read
    with it, and teaching 28 cards is most of their time)."""
    folder = tmp_path_factory.mktemp("taught")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOURPAD_DATA_DIR", str(folder))
        for letters in photos.teaching_rows(australia):
            faces.teach_deck(shot(australia, tuple(letters), index=20 + australia.letters.index(letters[0]),
                                  photo_size=BIG), australia, letters)
        return taught.deck_file(australia.id).read_bytes()


def use_deck(deck: bytes, data_dir, monkeypatch) -> None:
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(data_dir))
    taught.deck_file("australia", create=True).write_bytes(deck)


def test_a_blurred_photo_is_read_by_the_blurred_look(australia, four_photo_deck, tmp_path, monkeypatch):
    # A row photographed small and blurred: for its third card (H) the sharp teaching cuts' keypoints agree on
    # a look-alike (F, with the same number) by three keypoints only, which names nothing; the same cuts blurred
    # name H firmly.
    use_deck(four_photo_deck, tmp_path, monkeypatch)
    blurred = shot(australia, index=8, photo_size=BIG, scale=0.7, blur=1.8)

    def read() -> str:
        letters = "".join(r.letter or "?" for r in faces.read_row(blurred, australia).readings)
        assert all(got in ("?", want) for got, want in zip(letters, ROW, strict=True)), letters  # never wrong
        return letters

    assert ROW[2] == "H" and read()[2] == "H"
    monkeypatch.setattr(faces._DeckIndex, "blurred", faces._Keypoints({}))
    assert read()[2] == "?"


def test_a_deck_taught_before_the_blurred_look_still_reads(australia, tmp_path, monkeypatch):
    # A deck file kept by an earlier tourpad has no blurred keypoints: it loads, and reads by the sharp ones.
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    faces.teach_deck(shot(australia), australia, "".join(ROW))
    path = taught.deck_file(australia.id)
    with np.load(path) as data:
        older = {name: data[name] for name in data.files if not name.startswith("blurred_")}
    np.savez_compressed(path, **older)
    deck = taught.load_deck(australia.id)
    assert set(deck) == set(ROW) and all(len(card.blurred_descriptors) == 0 for card in deck.values())
    assert scan_row(shot(australia, index=3), australia).letters == "".join(ROW)


def test_the_number_settles_two_close_faces(australia, monkeypatch):
    # A blurred face whose keypoints name one card but another nearly as well: the number, read clearly as the
    # first card's and not the other's, names it (when the face's likeness names it too); an unclear number, or a
    # rival with the same number, does not.
    number_of = dict(zip(australia.letters, australia.numbers, strict=True))
    first, rival = "B", next(x for x in australia.letters if number_of[x] != number_of["B"])
    twin = next(x for x in australia.letters if x != "B" and number_of[x] == number_of["B"])
    deck = taught_deck(australia, "".join(sorted({first, rival, twin})))
    card = np.full_like(cut(photos.face_of(australia, first, STYLE)), 128)  # no face to go on but keypoints

    def reading(found, fits, face=None):
        monkeypatch.setattr(faces._DeckIndex, "identify",
                            lambda self, image: (found, *faces._identified(found)))
        monkeypatch.setattr(faces._DeckIndex, "digit_fits", lambda self, image, numbers: fits)
        # the face's likeness: like `face` alone, or like no card
        monkeypatch.setattr(faces, "_face_scores", lambda image, taught: ([(1.0, face)] if face else [], 1.0))
        return faces.read_card(card, australia, deck).letter

    clear = {digit: 0.5 for digit in set(australia.numbers)} | {number_of[first]: 0.95}
    unclear = clear | {number_of[rival]: 0.9}
    assert faces._identified([(6, first), (4, rival)]) == (None, False)  # keypoints alone: not sure
    assert reading([(6, first), (4, rival)], clear, face=first) == first
    assert reading([(6, first), (4, rival)], clear) is None  # only when the face's likeness agrees
    assert reading([(6, first), (4, rival)], unclear) is None
    assert reading([(6, first), (4, twin)], clear) is None
    assert reading([(2, first), (1, rival)], clear) is None  # too few keypoints to go on


def test_a_few_keypoints_alone_name_a_card_only_when_its_face_looks_most_like_it(australia, monkeypatch):
    # A card never taught (its teaching photo failed) was named firmly as a taught look-alike with its number: six
    # keypoints agreed on it by chance and on no other card, while the face looked most like a third card. Such
    # a naming is faint; the card is then read by its corners, as an untaught card is.
    number_of = dict(zip(australia.letters, australia.numbers, strict=True))
    untaught = "Q"
    look_alike = next(x for x in australia.letters if x != untaught and number_of[x] == number_of[untaught])
    other = next(x for x in australia.letters if x not in (untaught, look_alike))
    deck = taught_deck(australia, look_alike + other)
    card = cut(photos.face_of(australia, untaught, STYLE))
    found = [(6, look_alike)]
    assert faces._identified(found) == (look_alike, True)
    monkeypatch.setattr(faces._DeckIndex, "identify", lambda self, image: (found, *faces._identified(found)))

    def reading(most_like: str) -> str | None:
        likeness = [(0.5, most_like), (0.4, other if most_like == look_alike else look_alike)]
        monkeypatch.setattr(faces, "_face_scores", lambda image, taught: (likeness, 1.0))
        return faces.read_card(card, australia, deck).letter

    assert reading(other) == untaught  # by its corners, not as the look-alike
    assert reading(look_alike) == look_alike  # the keypoints and the face agree: named


def test_an_untaught_letter_is_never_guessed(australia):
    deck = taught_deck(australia, "ABC")
    assert faces.read_card(cut(photos.face_of(australia, "B", STYLE)), australia, deck).letter == "B"
    reading = faces.read_card(cut(photos.face_of(australia, "Q", STYLE)), australia, deck)
    assert reading.letter in (None, "Q")


# --- Teaching -----------------------------------------------------------------------------------------------

def test_teach_keeps_learns_replaces_and_forgets(australia, tmp_path, monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    assert taught.learned(australia) == ""
    assert faces.teach_deck(shot(australia), australia, "".join(ROW)) == "HKLNQS@"
    assert faces.teach_deck(shot(australia, tuple("ABCDEFG"), index=1), australia, "abcdefg") == \
        "ABCDEFGHKLNQS@"
    assert faces.teach_deck(shot(australia, index=2), australia, "".join(ROW)) == "ABCDEFGHKLNQS@"
    assert set(taught.learned_preview(australia)) == set("ABCDEFGHKLNQS@")
    assert taught.learned_preview(australia)["A"].startswith(b"\x89PNG")
    assert (tmp_path / "scan-templates").is_dir() and taught.templates_dir() == tmp_path / "scan-templates"
    assert taught.forget_deck(australia) == 14
    assert taught.learned(australia) == ""


def test_teach_refuses_wrong_letters_and_counts(australia, tmp_path, monkeypatch):
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    with pytest.raises(faces.TeachError, match="has no card 1"):
        faces.teach_deck(shot(australia), australia, "ABCDEF1")
    with pytest.raises(faces.TeachError, match="letter A given twice"):
        faces.teach_deck(shot(australia), australia, "ABCDEFA")
    with pytest.raises(faces.TeachError, match="found 7 cards in the photo but 6 letters"):
        faces.teach_deck(shot(australia), australia, "ABCDEF")
    with pytest.raises(faces.TeachError, match="found 6 cards in the photo but 7 letters"):
        faces.teach_deck(shot(australia, ROW[:6], index=4), australia, "ABCDEFG")
    with pytest.raises(ScanImageError):
        faces.teach_deck(b"not a photo", australia, "ABCDEFG")
    assert taught.learned(australia) == ""


def test_teaching_drops_the_table_taken_for_an_eighth_card(tmp_path, monkeypatch):
    # A deck style, table and framing where the row's outline runs on past the last card: the finder cuts an
    # eighth "card" of bare table, with a few dozen keypoints against every card's hundreds. Teaching drops it
    # (7 letters given), and the cards are learned in their places: a row of them reads back.
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    europe = resolve_edition("europe")
    seed = 77 * 7919
    style = photos.deck_style(seed)
    teaching = photos.teaching_photo(europe, style, "HIJKLMN", seed, BIG)
    assert len(find.find_cards(find.load_rgb(teaching)).cards) == 8, "the premise: an eighth cut"
    assert faces.teach_deck(teaching, europe, "HIJKLMN") == "HIJKLMN"
    row = photos.photo(europe, style, 5, 1, tuple("NLJHIKM"), scale=1.0, blur=0.3, gap_mm=5, photo_size=BIG,
                       across=False).jpeg
    assert scan_row(row, europe).letters == "NLJHIKM"
    with pytest.raises(faces.TeachError, match="found 7 cards in the photo but 6 letters"):
        faces.teach_deck(shot(europe, tuple("ABCDEFG"), photo_size=BIG), europe, "ABCDEF")  # cards all


def test_teach_four_photos_then_read_another_row(australia, four_photo_deck, tmp_path, monkeypatch):
    use_deck(four_photo_deck, tmp_path, monkeypatch)
    assert taught.learned(australia) == australia.letters
    result = scan_row(shot(australia, index=5, photo_size=BIG), australia)
    assert result.complete and result.letters == "".join(ROW), result.letters

# --- Rows that are not one player's 7 cards -----------------------------------------------------------------

def test_six_cards_are_named(australia):
    result = scan_row(shot(australia, ROW[:6], index=7), australia)
    assert "found 6 cards; a row has 7: is a card covered, or outside the photo?" in result.problems
    assert not result.complete


def test_eight_cards_are_named(australia):
    result = scan_row(shot(australia, (*ROW, "A"), index=8, scale=1.0), australia)
    assert "found 8 cards; a row has 7: photograph one player's row only" in result.problems
    assert not result.complete


def test_two_copies_of_a_letter_are_named(australia):
    reading = faces.CardReading
    # Two positions that fit one taught card: the weaker reads `?` and says what it looked like ...
    readings = faces._one_card_each((reading("B", score=0.8), reading("C", score=0.7), reading("B", score=0.5)))
    assert [r.letter for r in readings] == ["B", "C", None]
    assert readings[2].problem == "looks like card B, which is also at position 1: two copies of one card, or a misread"
    # ... even when both fit about as well: two copies of one card are far rarer than two look-alike faces.
    readings = faces._one_card_each((reading("B", score=0.78), reading("B", score=0.8)))
    assert [r.letter for r in readings] == [None, "B"]
    assert readings[0].problem == "looks like card B, which is also at position 2: two copies of one card, or a misread"


def test_a_photo_with_two_copies_of_a_card_names_them(australia, tmp_path, monkeypatch):
    # A row with card K twice (two copies, as from two boxes): the copy that fits less well stays `?` and says so.
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(tmp_path))
    taught.save_deck(australia.id, taught_deck(australia, australia.letters))
    result = scan_row(shot(australia, (*ROW[:6], "K"), index=9, photo_size=BIG), australia)
    assert not result.complete
    # K is the first card and the last: one of the two is read, the other left for the player
    assert result.slots in ((None, *ROW[1:6], "K"), (*ROW[:6], None)), result.slots
    unread = result.slots.index(None) + 1
    assert f"position {unread}: looks like card K, which is also at position {8 - unread}: two copies of one " \
           "card, or a misread" in result.problems, result.problems


def test_letter_problems_name_a_card_taken_by_another_player():
    assert letter_problems([(0, "A"), (3, "B")], {"B": "Ann"}) == [
        "position 4: card B is already in Ann's row this round"]


def test_without_opencv_a_photo_without_codes_says_so(australia, monkeypatch):
    import sys

    # The browser build has no OpenCV: importing the printed-card reader fails there.
    import scorer.scan

    for name in ("faces", "find", "taught"):
        monkeypatch.delitem(sys.modules, f"scorer.scan.{name}", raising=False)
        monkeypatch.delattr(scorer.scan, name, raising=False)
    monkeypatch.setitem(sys.modules, "cv2", None)
    result = scan_row(shot(australia, ROW[:3], index=12, scale=0.6), australia, budget=0.2)
    assert result.slots == (None,) * 7
    assert ("reading the publisher's printed cards needs OpenCV, which this build of tourpad does not have: scan "
            "on the host (tourpad host), or type the letters in") in result.problems
