"""Scanning a drafted row from one photo: ordering, partial reads, wrong cards, bad files, the CLI.

Photos come from the synthetic generator the benchmark uses (benchmarks/scan_photos.py), made here from
fixed seeds at a framing and blur every phone manages, so each test reads a real JPEG through zxing-cpp.
The geometry that orders the cards is also checked on its own with hypothesis, at any angle.
"""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFilter
from typer.testing import CliRunner

from benchmarks import scan_photos
from printables.payload import card_payload
from scorer.cli import app
from scorer.scan.codes import (
    _decode,
    _expected_spots,
    _grid_angle,
    _tell_anywhere,
    _tell_around,
    load_image,
    locate_known_code,
    match_known_code,
)
from scorer.scan.image import ScanImageError
from scorer.scan.photo import scan_row
from scorer.scan.rows import CARD_PITCH_IN_CODES, FoundCode, arrange

ROW = tuple("KSHN@LQ")
BUDGET = 5.0  # generous: these photos read in the first pass; a loaded CI machine must not change the answer


def shot(index: int = 0, letters=ROW, **options) -> bytes:
    options.setdefault("scale", 1.2)
    options.setdefault("blur", 0.5)
    return scan_photos.photo(7, index, "australia", tuple(letters), **options).jpeg


def scan(data, australia, **options):
    return scan_row(data, australia, budget=BUDGET, **options)


def unreadable_face(letter: str) -> Image.Image:
    """A card whose code is spoiled: a sticker over the top two thirds of it, two finder patterns and most of
    the modules that tell one card from another (still a card, still texture). A sticker over its top third
    only leaves enough of the code for `locate_known_code` and `match_known_code` to name the card."""
    face = scan_photos.card_face("australia", letter).copy()
    mm = scan_photos.FACE_PX_PER_MM
    cx, cy = (c * mm for c in scan_photos.QR_CENTRE_MM)
    half = scan_photos.QR_MM * mm / 2
    ImageDraw.Draw(face).rectangle((cx - half, cy - half, cx + half, cy + half / 3), fill="#FBF7EE")
    return face


# --- Ordering -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("index", [0, 1])
def test_a_row_reads_left_to_right(australia, index):
    result = scan(shot(index), australia)
    assert result.letters == "".join(ROW)
    assert result.complete and result.layout == "row" and result.messages() == []


def test_a_column_reads_top_to_bottom(australia):
    result = scan(shot(2, column=True, scale=1.15), australia)
    assert result.layout == "column"
    assert result.letters == "".join(ROW)


@pytest.mark.parametrize("turn", [180, 90, -90])
def test_a_row_photographed_from_another_side_still_reads_throw_card_first(australia, turn):
    """From across the table the row appears reversed (180°) or upright in the photo (±90°); the codes'
    own orientation says which card is the Throw card."""
    result = scan(shot(3, turn=turn, scale=0.7 if turn != 180 else 1.2), australia)
    assert result.letters == "".join(ROW)
    assert result.layout == "row"


def test_exif_rotation_is_applied_before_reading(australia):
    upright = Image.open(io.BytesIO(shot(4)))
    exif = Image.Exif()
    exif[0x0112] = 6  # the phone was held sideways: rotate 90° clockwise to view
    out = io.BytesIO()
    upright.transpose(Image.Transpose.ROTATE_90).save(out, "JPEG", quality=90, exif=exif.tobytes())
    loaded = load_image(out.getvalue())
    assert loaded.size == upright.size
    assert scan(out.getvalue(), australia).letters == "".join(ROW)


def _codes_along(angle: float, layout: str, pitch: float, positions: list[int], wobble: list[float]):
    right = np.array([math.cos(angle), math.sin(angle)])
    down = np.array([-right[1], right[0]])
    axis = right if layout == "row" else down
    size = pitch / CARD_PITCH_IN_CODES[layout] * 0.95
    origin = np.array([5000.0, 5000.0])
    codes = []
    for position, offset in zip(positions, wobble, strict=False):
        centre = origin + position * pitch * axis + offset * size * (down if layout == "row" else right)
        codes.append(FoundCode(card_payload("australia", "ABCDEFG"[position]), tuple(centre), tuple(right), size))
    return codes


@given(angle=st.floats(0, 2 * math.pi), layout=st.sampled_from(["row", "column"]),
       pitch=st.floats(80, 600), found=st.sets(st.integers(1, 5)),
       wobble=st.lists(st.floats(-0.15, 0.15), min_size=7, max_size=7), shuffle=st.randoms())
def test_positions_follow_the_cards_reading_direction_at_any_angle(angle, layout, pitch, found, wobble, shuffle):
    """First and last card read, any of the middle ones missing, any rotation: each code lands at its
    draft position (gaps estimated from the spacing)."""
    positions = sorted({0, 6} | found)
    codes = _codes_along(angle, layout, pitch, positions, wobble)
    shuffle.shuffle(codes)
    row = arrange(codes, (10_000, 10_000))
    assert row.layout == layout
    assert [c.text[-1] for c in row.codes] == ["ABCDEFG"[p] for p in positions]
    assert list(row.positions) == positions


@given(angle=st.floats(-0.3, 0.3), found=st.sets(st.integers(0, 6), min_size=1, max_size=6))
def test_cards_missing_at_an_end_go_where_the_photo_shows_detail(angle, found):
    positions = sorted(found)
    codes = _codes_along(angle, "row", 300.0, positions, [0.0] * 7)
    right = np.array([math.cos(angle), math.sin(angle)])
    true_spots = [np.array([5000.0, 5000.0]) + k * 300.0 * right for k in range(7)]

    def detail(centre, size):  # the unread cards' codes are texture, fading off them; the bare table is not
        nearest = min(np.linalg.norm(centre - s) for s in true_spots)
        return 5.0 + 60.0 * max(0.0, 1 - nearest / 150.0)

    assert list(arrange(codes, (10_000, 10_000), detail=detail).positions) == positions


# --- Hard photos: far, blurred, dim -----------------------------------------------------------------------------

def test_a_far_blurred_row_the_first_pass_misses_reads_complete(australia):
    """Photo 16 of the bench set: the row spans a third of the photo (2.4 px per module) and the camera's
    blur (1.4 px) runs the modules together. Before, two cards stayed unread however long the scanner
    looked; their codes are still located, and told apart by their look."""
    photo = scan_photos.photo(2026, 16, "australia", all_letters=australia.letters, case="far")
    assert "scale=0.53 blur=1.39" in photo.description
    result = scan(photo.jpeg, australia)
    assert result.letters == "".join(photo.letters) and result.complete


def blurred_code(payload: str, blur: float = 1.8, px_per_module: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A card code at 3 px per module blurred past decoding, and its outer corners (quiet zone of 2)."""
    image = scan_photos.qr_image(payload, px_per_module, border=2).filter(ImageFilter.GaussianBlur(blur))
    start, end = 2 * px_per_module, (2 + 21) * px_per_module
    return np.asarray(image), np.array([(start, start), (end, start), (end, end), (start, end)], float)


@settings(max_examples=15, deadline=None)
@given(letter=st.sampled_from(tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ@#")), quarter_turns=st.integers(0, 3))
def test_a_code_too_blurred_to_decode_is_told_by_its_look(australia, letter, quarter_turns):
    if letter not in australia.letters:
        return
    payload = card_payload("australia", letter)
    pixels, corners = blurred_code(payload)
    pixels = np.ascontiguousarray(np.rot90(pixels, quarter_turns))
    # np.rot90 turns counter-clockwise: each corner (x, y) moves to (y, width - 1 - x)
    for _ in range(quarter_turns):
        corners = np.array([(y, pixels.shape[1] - x) for x, y in corners])
    assert _decode(pixels) == []  # the error correction gives up on it
    assert match_known_code(pixels, corners, australia) == payload


def test_a_blurred_card_of_another_game_is_told_as_such_and_texture_is_no_card(australia):
    pixels, corners = blurred_code(card_payload("europe", "Q"))
    assert match_known_code(pixels, corners, australia) == "tp:europe:Q"
    grain = np.random.default_rng(5).integers(0, 256, pixels.shape, dtype=np.uint8)
    assert match_known_code(grain, corners, australia) is None
    assert match_known_code(np.full_like(pixels, 128), corners, australia) is None


def soft_skewed_code(payload: str, right: tuple[float, float], down: tuple[float, float], blur: float = 1.5,
                     seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A card code drawn as a far photo shows it: each module `right` × `down` px (about 2.4, turned and skewed
    by perspective), blurred, with grain, on a card with a line of text above; and its outer corners."""
    modules, border, px = 21, 2, 12
    flat = scan_photos.qr_image(payload, px, border=border)
    card = Image.new("L", (240, 200), 238)
    ImageDraw.Draw(card).text((30, 8), "site Q  ·  Sydney Opera House", fill=40)
    axes = np.array([right, down], float).T  # columns: one module's step along the code's right and down
    top_left = np.array([60.0, 60.0])
    to_flat = px * np.linalg.inv(axes)  # photo px → flat code px, then offset by the quiet zone
    shift = px * border - to_flat @ top_left
    code = flat.transform(card.size, Image.AFFINE, (*to_flat[0], shift[0], *to_flat[1], shift[1]), Image.BICUBIC,
                          fillcolor=238)
    mask = Image.new("L", flat.size, 255).transform(card.size, Image.AFFINE, (*to_flat[0], shift[0], *to_flat[1],
                                                                              shift[1]), Image.BICUBIC)
    card.paste(code, (0, 0), mask)
    pixels = np.asarray(card.filter(ImageFilter.GaussianBlur(blur)), np.float32)
    pixels = pixels + np.random.default_rng(seed).normal(0, 6, pixels.shape)
    corners = np.array([top_left + axes @ (u, v) for u, v in [(0, 0), (modules, 0), (modules, modules), (0, modules)]])
    return np.clip(pixels, 0, 255).astype(np.uint8), corners


@pytest.mark.parametrize(("letter", "right", "down"), [("K", (2.4, 0.3), (-0.1, 2.4)),
                                                      ("@", (2.3, -0.5), (0.9, 2.2))])
def test_a_code_no_binarizer_locates_is_found_by_the_modules_every_card_shares(australia, letter, right, down):
    payload = card_payload("australia", letter)
    pixels, corners = soft_skewed_code(payload, right, down)
    unread: list[np.ndarray] = []
    assert _decode(pixels, unread=unread) == []
    # Where and how its neighbours say the code lies: a few px off, turned 2° and 4 % larger.
    size = float(np.linalg.norm(corners[1] - corners[0]))
    guess = corners.mean(axis=0) + np.array([5, -4])
    turn = np.array([(math.cos(0.035), -math.sin(0.035)), (math.sin(0.035), math.cos(0.035))])
    edges = 1.04 * 21 * np.array([turn @ right, turn @ down])
    found = locate_known_code(pixels, guess, edges, 0.3 * size, australia)
    assert found is not None and np.abs(found - corners).max() < 1.5
    (code,) = _tell_around(pixels, guess, size, 0.0, edges, australia)
    assert code.text == payload and math.dist(code.centre, corners.mean(axis=0)) < 1


@pytest.mark.parametrize("degrees", [-14.0, 8.0, 75.0])
def test_with_no_code_read_yet_a_code_is_found_by_the_way_its_grid_runs(australia, degrees):
    """No neighbour to say how a code is turned: the grid of its modules says it, up to a quarter turn, and
    each of the four ways up is tried."""
    turn = math.radians(degrees)
    right = 2.4 * np.array([math.cos(turn), math.sin(turn)])
    pixels, corners = soft_skewed_code(card_payload("australia", "Q"), tuple(right), (-right[1], right[0]))
    found = math.degrees(_grid_angle(pixels, corners.mean(axis=0), 30))
    assert abs((found - degrees + 45) % 90 - 45) < 3
    size = float(np.linalg.norm(corners[1] - corners[0]))
    (code,) = _tell_anywhere(pixels, corners.mean(axis=0) + np.array([8, 6]), 1.08 * size, australia)
    assert code.text == "tp:australia:Q" and math.dist(code.centre, corners.mean(axis=0)) < 1


def test_text_grain_and_a_bare_card_are_never_located_as_a_code(australia):
    pixels, corners = soft_skewed_code(card_payload("australia", "K"), (2.4, 0.0), (0.0, 2.4))
    size = float(np.linalg.norm(corners[1] - corners[0]))
    edges = np.array([(size, 0.0), (0.0, size)])
    text = np.array([60.0 + size / 2, 8.0 + size / 2])  # the line of text above the code, on the card
    grain = np.random.default_rng(5).integers(0, 256, pixels.shape, dtype=np.uint8)
    bare = np.full_like(pixels, 238)
    for image, centre in ((pixels, text), (grain, corners.mean(axis=0)), (bare, corners.mean(axis=0))):
        assert locate_known_code(image, centre, edges, 0.2 * size, australia) is None
        assert _tell_around(image, centre, size, 0.0, edges, australia) == []
        assert _tell_anywhere(image, centre, size, australia) == []
    for beyond_the_edge in ((-3 * size, 40.0), (40.0, 10 * size), (3 * size + pixels.shape[1], 40.0)):
        assert locate_known_code(pixels, np.array(beyond_the_edge), edges, 0.2 * size, australia) is None


def test_an_unread_code_is_expected_in_the_shape_its_neighbours_show(australia):
    """Perspective skews the codes along the row: the one between two found codes takes the mean of their
    shapes, which is what `locate_known_code` starts from."""
    size = 50.0
    pitch = size * CARD_PITCH_IN_CODES["row"]
    left_shape = np.array([(50.0, -4.0), (8.0, 49.0)])
    right_shape = np.array([(50.0, 2.0), (-6.0, 51.0)])

    def code(letter: str, x: float, shape: np.ndarray) -> FoundCode:
        top_left = np.array([x, 400.0]) - (shape[0] + shape[1]) / 2
        corners = [top_left, top_left + shape[0], top_left + shape[0] + shape[1], top_left + shape[1]]
        return FoundCode(card_payload("australia", letter), (x, 400.0), (1.0, 0.0), size,
                         tuple(tuple(c) for c in corners))

    codes = [code("A", 300.0, left_shape), code("C", 300.0 + 2 * pitch, right_shape)]
    ((centre, _size, doubt, edges),) = _expected_spots(codes, (2000, 1000), 3)
    assert np.allclose(centre, (300.0 + pitch, 400.0)) and doubt == 0.0
    assert np.allclose(edges, (left_shape + right_shape) / 2)


def test_a_far_dim_blurred_row_no_binarizer_reads_is_read_by_its_codes_shapes(australia):
    """Photo 319 of the bench set: 2.3 px per module, blur 1.2 px, a third of the light. Three codes stayed
    unread: zxing-cpp could not even locate them; the modules every card code shares still show where."""
    photo = scan_photos.photo(2026, 319, "australia", all_letters=australia.letters, case="dim")
    assert "scale=0.50 blur=1.22 exposure=0.36" in photo.description
    result = scan(photo.jpeg, australia)
    assert result.letters == "".join(photo.letters) and result.complete


def test_photo_cases_come_in_turn_and_an_unknown_case_is_refused():
    assert [scan_photos.case_of(i) for i in range(6)] == ["everyday", "far", "blurred", "compressed", "dim",
                                                          "everyday"]
    with pytest.raises(ValueError, match="unknown photo case 'foggy'"):
        scan_photos.photo(1, 0, case="foggy")


# --- Partial and wrong reads -----------------------------------------------------------------------------------

def test_an_unread_card_in_the_middle_leaves_its_position_open(australia):
    result = scan(shot(5, extra_faces={3: unreadable_face("N")}), australia)
    assert result.slots == ("K", "S", "H", None, "@", "L", "Q")
    assert result.missing == (4,) and not result.complete
    assert "position 4 not read" in result.messages()[0]


def test_an_unread_card_at_the_end_is_placed_last(australia):
    result = scan(shot(6, extra_faces={6: unreadable_face("Q")}), australia)
    assert result.letters == "KSHN@L?"
    assert result.missing == (7,)


def test_two_unread_cards_are_both_reported(australia):
    result = scan(shot(8, extra_faces={0: unreadable_face("K"), 4: unreadable_face("@")}), australia)
    assert result.letters == "?SHN?LQ"
    assert "positions 1 and 5 not read" in result.messages()[0]


def test_a_far_away_photo_with_gaps_says_to_come_closer(australia):
    # at scale 0.55 the row spans a third of the photo: about 2 px per module of the printed 22 mm code
    result = scan(shot(13, scale=0.55, extra_faces={2: unreadable_face("H")}), australia)
    assert 3 in result.missing
    assert any("take it closer" in problem for problem in result.problems)
    near = scan(shot(13, scale=1.3, extra_faces={2: unreadable_face("H")}), australia)
    assert near.missing == (3,) and near.problems == ()


def test_a_card_of_another_edition_is_named_and_not_entered(australia):
    europe_card = scan_photos.card_face("europe", "Q")
    result = scan(shot(9, extra_faces={2: europe_card}), australia)
    assert result.slots[2] is None and result.letters == "KS?N@LQ"
    assert result.problems == ("position 3: card Q of edition 'europe' is not a card of this game "
                               "(Boomerang: Australia)",)


def test_a_duplicate_letter_is_named(australia):
    result = scan(shot(10, letters="KSHNKLQ"), australia)
    assert result.letters == "KSHNKLQ"
    assert "card K appears twice (positions 1 and 5)" in result.problems
    assert not result.complete


def test_a_letter_another_player_has_is_named_with_the_player(australia):
    result = scan(shot(11), australia, taken={"H": "Ann", "Z": "Bob"})
    assert result.problems == ("position 3: card H is already in Ann's row this round",)
    plain = scan(shot(11), australia, taken="HZ")
    assert plain.problems == ("position 3: card H is already in another player's row this round",)


def test_a_qr_code_that_is_not_a_card_is_ignored_with_a_message(australia):
    photo = Image.open(io.BytesIO(shot(12, scale=0.8)))
    poster = scan_photos.qr_image("https://example.org/menu", 8).convert("RGB")
    photo.paste(poster, (60, 60))
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=90)
    result = scan(out.getvalue(), australia)
    assert result.letters == "".join(ROW)
    assert result.problems == ("ignored a QR code that is not a tourpad card: 'https://example.org/menu'",)


def test_a_photo_without_cards_says_what_to_do(australia):
    out = io.BytesIO()
    Image.new("RGB", (800, 600), "#7a5230").save(out, "PNG")
    result = scan(out.getvalue(), australia)
    assert result.slots == (None,) * 7
    assert result.problems[0].startswith("no card codes found in the photo")


# --- Bad files ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "expected"), [
    (b"", "the image file is empty"),
    (b"round 3: KSHN@LQ\n", "is not an image we can read"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is not an image we can read"),
])
def test_a_file_that_is_no_image_is_refused_clearly(australia, data, expected):
    with pytest.raises(ScanImageError, match=expected):
        scan_row(data, australia)


def test_a_cut_off_jpeg_is_refused_clearly(australia):
    data = shot(0)
    with pytest.raises(ScanImageError, match="not an image we can read"):
        scan_row(data[: len(data) // 3], australia)


def test_a_missing_file_is_refused_clearly(australia, tmp_path):
    with pytest.raises(ScanImageError, match=r"cannot read .*nope\.jpg"):
        scan_row(tmp_path / "nope.jpg", australia)


# --- CLI --------------------------------------------------------------------------------------------------------

runner = CliRunner()


def one_line(text: str) -> str:
    """Rich wraps long messages at the terminal width; compare the words."""
    return " ".join(text.split())


def test_cli_prints_the_letters_in_order(tmp_path):
    path = tmp_path / "row.jpg"
    path.write_bytes(shot(0))
    result = runner.invoke(app, ["scan", str(path), "--edition", "australia"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "KSHN@LQ"


def test_cli_json_and_partial_rows_exit_1_with_the_problem(tmp_path):
    path = tmp_path / "row.jpg"
    path.write_bytes(shot(5, extra_faces={3: unreadable_face("N")}))
    result = runner.invoke(app, ["scan", str(path), "--json", "--taken", "k"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["letters"] == "KSH?@LQ" and doc["missing"] == [4] and not doc["complete"]
    assert doc["problems"] == ["position 1: card K is already in another player's row this round"]


def test_cli_refuses_a_file_that_is_no_image(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo")
    result = runner.invoke(app, ["scan", str(path)])
    assert result.exit_code == 2
    assert "is not an image we can read" in one_line(result.stderr)
    missing = runner.invoke(app, ["scan", str(tmp_path / "gone.jpg")])
    assert missing.exit_code == 2 and "no such file" in one_line(missing.stderr)
    unknown = runner.invoke(app, ["scan", str(path), "--edition", "narnia"])
    assert unknown.exit_code == 2 and "unknown edition 'narnia'" in one_line(unknown.stderr)


@pytest.mark.slow
def test_bench_scan_measures_a_small_set(tmp_path, australia):
    from benchmarks import scan as bench_scan

    report = bench_scan.run(australia, photos=2, seed=3, cache_dir=tmp_path)
    assert report["photos"] == 2
    assert set(report["by_case"]) == {"everyday", "far"}  # the cases in turn
    assert all(case["photos"] == 1 for case in report["by_case"].values())
    share = float(report["complete_and_in_order"].split("%")[0]) / 100
    assert share == 1 - len(report["failures"]) / 2
    photos = sorted(tmp_path.rglob("*.jpg"))
    assert len(photos) == 2
    truth = json.loads(photos[0].with_suffix(".json").read_text())["letters"]
    assert len(truth) == 7 and set(truth) <= set(australia.letters)
    # A second run measures the cached photos instead of drawing them again.
    before = [p.stat().st_mtime_ns for p in photos]
    bench_scan.run(australia, photos=2, seed=3, cache_dir=tmp_path)
    assert [p.stat().st_mtime_ns for p in photos] == before


# --- Completing a scanned row in the app ------------------------------------------------------------------------

def test_a_proposal_turns_every_unsettled_position_into_a_hole_the_player_fills():
    from scorer.pad.scan import RowProposal
    from scorer.scan.rows import ScanResult

    result = ScanResult("australia", ("K", None, "H", "K", "B", "L", "Q"),
                        problems=("card K appears twice (positions 1 and 4)",
                                  "position 5: card B is already in Ann's row this round"))
    proposal = RowProposal.from_result(result, {"B": "Ann"})
    assert proposal.letters == "K?H??LQ" and proposal.holes == [1, 3, 4]
    assert not proposal.fill("B") and proposal.message == "B is already in Ann's cards this round"
    assert not proposal.fill("H") and proposal.message == "H is already your card at position 3"
    assert proposal.fill("S") and proposal.message == "position 2: S; now tap the card at position 4"
    assert proposal.fill("N") and proposal.fill("@")
    assert proposal.complete and proposal.letters == "KSHN@LQ"
    assert "complete" in proposal.message
    assert not proposal.fill("A")  # nothing left to fill
