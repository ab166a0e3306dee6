"""The web app's scan: what the page's code reader answers (codes with corners, as JSON) becomes a row through
the same logic as `tourpad scan`; a malformed answer is refused with a message, never a traceback."""

from __future__ import annotations

import json

import pytest

from scorer.scan.browser import PhotoError, codes_of, result_of


def answer(letters: str, edition: str = "australia", start: int = 0, others: dict[int, str] | None = None,
           width: int = 1000) -> str:
    """A reader's answer for a row of cards laid left to right, 100 px apart, codes 40 px wide."""
    codes = []
    for i, letter in enumerate(letters):
        x = 20 + 100 * (start + i)
        text = f"tp:{(others or {}).get(i, edition)}:{letter}"
        codes.append({"text": text, "corners": [[x, 50], [x + 40, 50], [x + 40, 90], [x, 90]]})
    return json.dumps({"width": width, "height": 150, "codes": codes})


def test_a_row_read_in_the_page_fills_the_seven_letters_in_order(australia):
    shuffled = json.loads(answer("KSHN@LQ"))
    shuffled["codes"].reverse()  # the reader's order is not the row's: the corners say it
    result = result_of(json.dumps(shuffled), australia)
    assert result.letters == "KSHN@LQ"
    assert result.complete


def test_a_card_of_another_edition_is_refused_by_name(australia):
    result = result_of(answer("KSHN@LQ", others={2: "europe"}), australia)
    assert result.slots[2] is None
    assert "position 3: card H of edition 'europe' is not a card of this game (Boomerang: Australia)" in result.problems


def test_missing_cards_at_the_ends_place_no_letter_where_it_may_not_lie(australia):
    # Five cards read, two missing at the ends: which end the page cannot tell, so no position is guessed.
    result = result_of(answer("SHN@L", start=1), australia)
    assert result.slots == (None,) * 7
    assert any(p.startswith("read the cards S, H, N, @ and L, but not where in the row they lie")
               for p in result.problems), result.problems
    # A card missing between two read ones is placed: its neighbours say where.
    gap = json.loads(answer("KSHN@LQ"))
    del gap["codes"][3]
    assert result_of(json.dumps(gap), australia).letters == "KSH?@LQ"


def test_a_photo_without_codes_says_the_printed_cards_are_typed_on_the_phone(australia):
    result = result_of(json.dumps({"width": 800, "height": 600, "codes": []}), australia)
    assert result.slots == (None,) * 7
    assert any("cannot be read on the phone alone: tap their letters on the keypad" in p for p in result.problems)


@pytest.mark.parametrize("bad", [
    "not json", json.dumps({"width": 0, "height": 10, "codes": []}),
    json.dumps({"width": 10, "height": 10, "codes": [{"text": "x", "corners": [[0, 0]]}]})])
def test_a_malformed_answer_is_refused_with_a_message(bad):
    with pytest.raises(PhotoError, match="the code reader answered something unexpected"):
        codes_of(bad)


def test_close_looks_go_where_the_row_says_a_card_lies_then_stop():
    from scorer.scan.browser import CloseLooks

    codes, size = codes_of(answer("KSHN@LQ"))
    del codes[3]  # N, the fourth card, not read by the first pass
    looks = CloseLooks(codes, size)
    place = looks.next()
    assert place is not None
    (x, y), code_size, _doubt, _edges = place
    assert abs(x - 340) < 1 and abs(y - 70) < 1 and abs(code_size - 40) < 1  # between H and @, where N lies
    looks.add(place, [])  # nothing there: that place is not looked at again as it was
    assert looks.next() is None
    found, _size = codes_of(answer("N", start=3))
    fresh = CloseLooks(codes, size)
    fresh.add(fresh.next(), found)
    assert fresh.next() is None and len(fresh.codes) == 7  # the row is read: no more looks


def test_close_looks_give_the_shape_a_missing_code_has_between_its_neighbours():
    """The page searches for a code too soft to decode in the shape its read neighbours say: codes that grow
    and turn along the row (perspective) give the missing one the shape between theirs."""
    from scorer.scan.browser import CloseLooks
    from scorer.scan.rows import FoundCode

    codes = []
    for i, letter in enumerate("KSHN@LQ"):
        x, side, lean = 20 + 100 * i, 40 + 4 * i, 2 * i  # each code 4 px wider and a little more turned
        codes.append(FoundCode.from_corners(f"tp:australia:{letter}", [
            (x, 50), (x + side, 50 + lean), (x + side - lean, 50 + lean + side), (x - lean, 50 + side)]))
    del codes[3]  # N: between H (48 px, lean 4) and @ (56 px, lean 8)
    (_centre, _size, _doubt, edges) = CloseLooks(codes, (1000, 200)).next()
    assert edges == pytest.approx((52, 6, -6, 52))
