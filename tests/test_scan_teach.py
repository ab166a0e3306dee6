"""`tourpad scan teach`: teaching tourpad the player's own printing of the cards from the command line, in
English and French, and the letters a teaching photo is given (checked before any photo is read)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benchmarks.scan_publisher_photos import deck_style, face_of, teaching_photo
from rules.i18n import use_language
from scorer.cli import app
from scorer.packs import resolve_edition
from scorer.pad.teach import TeachLettersError, check_letters, progress, still_to_teach, teaching_rows
from scorer.scan.card_photos import card_photo

#: Help is laid out for the terminal's width: a wide one, so a phrase is never cut by a line break here.
runner = CliRunner(env={"COLUMNS": "200"})
NB = "\u00a0"  # French puts a no-break space before « : »
NNB = "\u202f"  # and a narrow one before « ; »


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv("TOURPAD_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="module")
def first_photo(tmp_path_factory):
    """The first teaching photo of Australia (cards A to G), as the teach screen asks them laid out."""
    australia = resolve_edition("australia")
    path = tmp_path_factory.mktemp("photos") / "first.jpg"
    path.write_bytes(teaching_photo(australia, deck_style(3), teaching_rows(australia)[0]))
    return path


def test_four_photos_of_seven_cover_each_bundled_deck():
    for edition_id in ("australia", "europe", "usa"):
        edition = resolve_edition(edition_id)
        rows = teaching_rows(edition)
        assert len(rows) == 4 and all(len(row) == 7 for row in rows)
        assert "".join(rows) == edition.letters


def test_letters_are_checked_with_the_problem_named():
    australia = resolve_edition("australia")
    assert check_letters(australia, " abc defg ") == "ABCDEFG"
    assert check_letters(australia, "@#ZYXWV") == "@#ZYXWV"
    with pytest.raises(TeachLettersError, match=r"^6 letters given: a teaching photo shows 7 cards"):
        check_letters(australia, "ABCDEF")
    with pytest.raises(TeachLettersError, match=r"^8 letters given"):
        check_letters(australia, "ABCDEFGH")
    with pytest.raises(TeachLettersError, match=r"^A is given twice"):
        check_letters(australia, "ABCDEFA")
    with pytest.raises(TeachLettersError, match=r"^A, B are given twice"):
        check_letters(australia, "ABABCDE")
    with pytest.raises(TeachLettersError, match=r"^Boomerang: Australia has no cards 1, \$ \(its cards: ABC"):
        check_letters(australia, "ABCDE1$")


def test_progress_counts_what_was_learned():
    australia = resolve_edition("australia")
    assert progress(australia, "ABCDEFGHIJKLMN") == "14 of 28 cards learned"
    assert still_to_teach(australia.letters, "ABCDEFGHIJKLMNOPQRSTUVWXY") == "Z@#"
    assert still_to_teach("KSHN@LQ", "ABCDEFGHIJKLMN") == "S@Q"
    with use_language("fr"):
        assert progress(australia, "A") == "1 carte apprise sur 28"
        assert progress(australia, "ABCDEFGHIJKLMN") == "14 cartes apprises sur 28"


def test_teach_learns_a_photo_keeps_each_cards_picture_and_forget_removes_them(data_dir, first_photo):
    taught = runner.invoke(app, ["scan", "teach", str(first_photo), "--edition", "australia",
                                 "--letters", "abcdefg"])
    assert taught.exit_code == 0, taught.output
    assert taught.output.strip() == ("learned ABCDEFG; Boomerang: Australia: 7 of 28 cards learned "
                                     "(still to teach: HIJKLMNOPQRSTUVWXYZ@#)")
    assert list((data_dir / "scan-templates").iterdir())  # kept in the data folder
    assert_pictures_are_the_cards_upright(resolve_edition("australia"), "ABCDEFG")
    forgot = runner.invoke(app, ["scan", "teach", "--edition", "australia", "--forget"])
    assert forgot.exit_code == 0, forgot.output
    assert forgot.output.strip() == "forgot 7 learned cards of Boomerang: Australia"
    assert card_photo("australia", "A") is None  # the pictures go with what was learned
    again = runner.invoke(app, ["scan", "teach", "--edition", "australia", "--forget"])
    assert again.output.strip() == "forgot 0 learned cards of Boomerang: Australia"


def assert_pictures_are_the_cards_upright(edition, letters: str) -> None:
    """Each taught card's kept picture (for the deck editor) is that card, upright and in colour: it matches
    its own face, as drawn for the photo, better than any other card of the photo, and better than its face
    turned over."""
    import io

    import numpy as np
    from PIL import Image, ImageFilter

    def colours(picture: Image.Image) -> np.ndarray:  # the card's colours at 3 mm a pixel, normalised
        values = np.asarray(picture.convert("RGB").filter(ImageFilter.GaussianBlur(1)).resize((21, 29)), np.float32)
        return (values - values.mean()) / (values.std() + 1e-6)

    faces = {letter: colours(face_of(edition, letter, deck_style(3))) for letter in letters}
    for letter in letters:
        kept = Image.open(io.BytesIO(card_photo(edition.id, letter)))
        assert kept.format == "JPEG" and kept.mode == "RGB" and kept.size == (189, 264)
        likeness = {other: float((colours(kept) * face).mean()) for other, face in faces.items()}
        assert max(likeness, key=likeness.get) == letter, likeness
        assert likeness[letter] > float((colours(kept) * faces[letter][::-1, ::-1]).mean())  # upright


@pytest.mark.parametrize("letters, problem", [
    ("ABCDEF", "--letters ABCDEF: 6 letters given: a teaching photo shows 7 cards, give each one's letter, "
               "left to right"),
    ("ABCDEFA", "--letters ABCDEFA: A is given twice: each card of the photo once, left to right"),
    ("ABCDEF1", "--letters ABCDEF1: Boomerang: Australia has no card 1 (its cards: ABCDEFGHIJKLMNOPQRSTUVWXYZ@#)"),
])
def test_wrong_letters_are_refused_before_the_photo_is_read(data_dir, first_photo, letters, problem):
    result = runner.invoke(app, ["scan", "teach", str(first_photo), "--letters", letters])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {problem}"
    assert not (data_dir / "scan-templates").exists() or not list((data_dir / "scan-templates").iterdir())


def test_teach_refusals_name_what_is_missing(data_dir, first_photo, tmp_path):
    cases = [
        (["scan", "teach"], "give a photo and its cards' letters"),
        (["scan", "teach", str(first_photo)], "give a photo and its cards' letters"),
        (["scan", "teach", str(first_photo), "--letters", "ABCDEFG", "--forget"], "--forget takes no photo"),
        (["scan", "teach", str(tmp_path / "gone.jpg"), "--letters", "ABCDEFG"], "gone.jpg"),
        (["scan", "teach", str(first_photo), "--letters", "ABCDEFG", "--edition", "narnia"], "narnia"),
    ]
    for args, problem in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.output.startswith("error: ") and problem in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_a_picture_that_is_no_image_is_named(data_dir, tmp_path):
    junk = tmp_path / "notes.jpg"
    junk.write_text("not a photo")
    result = runner.invoke(app, ["scan", "teach", str(junk), "--letters", "ABCDEFG"])
    assert result.exit_code == 2 and result.output.startswith(f"error: {junk}: ")


def test_scan_photo_still_reads_a_row_without_a_subcommand(data_dir, first_photo):
    result = runner.invoke(app, ["scan", str(first_photo), "--edition", "australia", "--json"])
    assert result.exit_code in (0, 1) and '"letters"' in result.output  # the read command, not a usage error


def test_teach_in_french(data_dir, first_photo):
    help_text = runner.invoke(app, ["--lang", "fr", "scan", "teach", "--help"]).output
    assert "Apprenez à tourpad" in help_text and "--forget" in help_text
    assert "Teach tourpad" not in help_text
    group_help = runner.invoke(app, ["--lang", "fr", "scan", "--help"]).output
    assert "Lit une rangée de cartes" in group_help and "Read a row" not in group_help
    taught = runner.invoke(app, ["--lang", "fr", "scan", "teach", str(first_photo), "--letters", "ABCDEFG"])
    assert taught.exit_code == 0, taught.output
    assert taught.output.strip() == (f"appris{NB}: ABCDEFG{NNB}; Boomerang{NB}: Australie{NB}: 7 cartes apprises "
                                     f"sur 28 (reste à apprendre{NB}: HIJKLMNOPQRSTUVWXYZ@#)")
    refused = runner.invoke(app, ["--lang", "fr", "scan", "teach", str(first_photo), "--letters", "ABCDEFA"])
    assert refused.output.strip() == (f"erreur{NB}: --letters ABCDEFA{NB}: la lettre A est donnée deux fois{NB}: "
                                      "chaque carte de la photo une seule fois, de gauche à droite")
    forgot = runner.invoke(app, ["--lang", "fr", "scan", "teach", "--forget"])
    assert forgot.output.strip() == f"7 cartes apprises oubliées pour Boomerang{NB}: Australie"


def test_without_opencv_teach_says_what_to_install(data_dir, first_photo, monkeypatch):
    import sys

    import scorer.scan.faces  # noqa: F401  (loaded, so that delitem below has something to take out)

    monkeypatch.setitem(sys.modules, "cv2", None)  # importing it now fails, as where it is missing
    monkeypatch.delitem(sys.modules, "scorer.scan.faces")
    result = runner.invoke(app, ["scan", "teach", str(first_photo), "--letters", "ABCDEFG"])
    assert result.exit_code == 2
    assert result.output.startswith("error: reading the publisher's cards needs OpenCV, which is not installed here")
    assert result.output.rstrip().endswith("pip install opencv-python-headless")


def test_a_saved_deck_reads_back_exactly_with_its_descriptors_kept_as_bytes(data_dir):
    """SIFT's descriptors are whole numbers up to 255: the deck's file keeps them as bytes and gives back
    exactly the float32 values the matcher was taught with; a field that is not whole numbers is kept as is."""
    import numpy as np

    from scorer.scan import taught

    rng = np.random.default_rng(5)
    whole = rng.integers(0, 256, (300, 128)).astype(np.float32)
    card = taught.LearnedCard(letter=rng.random((40, 30), dtype=np.float32),
                              number=rng.random((40, 30), dtype=np.float32),
                              face=rng.random((60, 40), dtype=np.float32),
                              points=rng.random((300, 2), dtype=np.float32), descriptors=whole,
                              circle=rng.random((30, 30), dtype=np.float32),
                              blurred_points=rng.random((2, 2), dtype=np.float32),
                              blurred_descriptors=np.full((2, 128), 0.5, np.float32))
    taught.save_deck("australia", {"A": card})
    with np.load(taught.deck_file("australia")) as kept:
        assert kept["descriptors_0"].dtype == np.uint8  # a quarter of float32's bytes
    back = taught.load_deck("australia")["A"]
    for name in ("letter", "number", "face", "points", "descriptors", "circle", "blurred_points",
                 "blurred_descriptors"):
        assert getattr(back, name).dtype == np.float32, name
        assert np.array_equal(getattr(back, name), getattr(card, name)), name
