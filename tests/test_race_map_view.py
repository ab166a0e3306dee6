"""The app's map (scorer.race.map_view): drawn from the printed map's geometry, with the journey and the
countries a tile in hand links to marked; each journey used here is judged by the checker first."""

from __future__ import annotations

from rules.race import map_layout as layout
from rules.race.board import load_board
from rules.race.journey import check_journey
from scorer.race.map_view import map_picture

BOARD = load_board()
K = BOARD.kind_of
#: A complete journey (the checker agrees): Spain ... Turkey by land, a ferry and a ship.
JOURNEY = [K(n) for n in ("Portugal", "Spain", "France", "Germany", "Poland", "Ukraine", "Turkey",
                          "Mediterranean ship", "Greece", "Macedonia")]


def test_the_journey_used_is_complete_by_the_checker():
    assert check_journey(BOARD, JOURNEY).valid


def test_the_map_marks_the_journey_and_its_borders():
    picture = map_picture(BOARD, JOURNEY)
    trips = {BOARD.countries[b.country]: b.trips for b in picture.boxes if b.trips}
    assert trips == {"Portugal": (1,), "Spain": (2,), "France": (3,), "Germany": (4,), "Poland": (5,),
                     "Ukraine": (6,), "Turkey": (7,), "Greece": (9,), "Macedonia": (10,)}
    walked = sorted(stroke.kind for stroke in picture.strokes if stroke.on_journey)
    # six land borders and the Ukraine–Turkey ferry; the ship's crossing is no line of the map
    assert walked == ["border"] * 6 + ["ferry"]
    assert len(picture.strokes) == len(layout.map_lines(BOARD))
    assert picture.fits == () and not any(b.reach for b in picture.boxes)


def test_a_tile_in_hand_shows_what_it_links_to_and_where_it_would_connect():
    holder = list(JOURNEY)
    holder[4] = K("Iceland")  # Germany–Iceland–Ukraine: both links broken
    assert not check_journey(BOARD, holder).valid
    picture = map_picture(BOARD, holder, K("Poland"))
    reached = {BOARD.countries[b.country] for b in picture.boxes if b.reach}
    assert reached == {BOARD.countries[j] for j in range(BOARD.n_countries) if BOARD.borders(K("Poland"), j)}
    assert [BOARD.countries[b.country] for b in picture.boxes if b.in_hand] == ["Poland"]
    assert 4 in picture.fits and 0 not in picture.fits
    fixed = list(holder)
    fixed[4] = K("Poland")
    assert check_journey(BOARD, fixed).valid  # where the map says it fits, the checker agrees
    plane = map_picture(BOARD, holder, K("yellow aeroplane"))
    assert {b.country for b in plane.boxes if b.reach} == {i for i in range(BOARD.n_countries)
                                                           if BOARD.colour[i] == BOARD.colour[K("Poland")]}
    assert 0 not in plane.fits and 9 not in plane.fits  # a transport never ends a journey


def test_boxes_keep_the_layouts_proportions_and_fit_the_picture():
    picture = map_picture(BOARD, [None] * 10, cell=(50.0, 30.0))
    for b in picture.boxes:
        assert abs(b.width - layout.BOX_W * 50) < 1e-9 and abs(b.height - layout.BOX_H * 30) < 1e-9
        assert b.left >= 0 and b.left + b.width <= picture.width
        assert b.top >= 0 and b.top + b.height <= picture.height
    for stroke in picture.strokes:
        assert all(0 <= x <= picture.width and 0 <= y <= picture.height for x, y in stroke.points)
