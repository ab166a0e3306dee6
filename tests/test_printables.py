"""Score pads and card sheets read back from the PDFs: pages and sizes per option, every letter, region
and card name present, every card's QR code decoding to its edition and letter, backs behind fronts,
and the `tourpad print` refusals (nothing written)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import zxingcpp
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, LETTER, landscape
from typer.testing import CliRunner

from printables.cards import render_cards
from printables.layout import card_grid
from printables.payload import parse_card_payload
from printables.scorepad import PadOptions, measure_template, render_scorepad
from rules.editions import bundled_ids, load_edition
from scorer.cli import app

sys.path.insert(0, str(Path(__file__).parent))
from printables_editions import LONG_SITE, big_region_pack, europe_like, usa_like

runner = CliRunner()


def all_editions():
    return [load_edition(e) for e in bundled_ids()] + [usa_like(), europe_like(), big_region_pack()]


EDITIONS = {e.id: e for e in all_editions()}


def page_texts(path: Path) -> list[str]:
    return [re.sub(r"\s+", " ", page.extract_text()) for page in PdfReader(path).pages]


def page_sizes(path: Path) -> list[tuple[float, float]]:
    return [(round(float(p.mediabox.width), 1), round(float(p.mediabox.height), 1)) for p in PdfReader(path).pages]


def rendered(path: Path, page: int, dpi: int, tmp_path: Path) -> Image.Image:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm (poppler-utils) is needed to read the pages back: run `make system-deps`")
    stem = tmp_path / f"page{page}"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(page), "-l", str(page), "-singlefile",
                    str(path), str(stem)], check=True)
    return Image.open(f"{stem}.png").convert("L")


def text_runs(path: Path, page: int, local: bool = False) -> list[tuple[str, float, float, float, float]]:
    """(text, x, baseline y, width, size) of every text run on a page, in page coordinates, or (local)
    in the coordinates the run was drawn in (a card's, or the score sheet's design frame)."""
    from printables.fonts import BOLD, CONDENSED_BOLD, SANS, register_fonts, text_width

    register_fonts()
    fonts = {"DejaVuSans": SANS, "DejaVuSans-Bold": BOLD, "DejaVuSansCondensed-Bold": CONDENSED_BOLD}
    runs = []

    def visit(text, cm, tm, font_dict, size):
        if not text.strip() or not font_dict:
            return
        font = fonts[str(font_dict["/BaseFont"]).split("+", 1)[1]]
        scale, dx, dy = (1.0, 0.0, 0.0) if local else (cm[0], cm[4], cm[5])
        x, y = dx + tm[4] * scale, dy + tm[5] * scale
        runs.append((text.strip(), x, y, text_width(text.strip(), font, size) * scale, size * scale))

    PdfReader(path).pages[page].extract_text(visitor_text=visit)
    return runs


# --- score pads ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", list(EDITIONS))
def test_score_pad_shows_every_letter_and_region(edition_id, tmp_path):
    edition = EDITIONS[edition_id]
    out = tmp_path / "pad.pdf"
    assert render_scorepad(edition, out, PadOptions(sheets=1)) == 1
    (text,) = page_texts(out)
    for region in edition.regions:
        assert region.name in text, f"region {region.name!r} missing"
    letters_on_map = set(re.findall(r"(?<![\w@#])([A-Z@#])(?![\w@#])", text))
    assert set(edition.letters) <= letters_on_map, f"letters missing: {set(edition.letters) - letters_on_map}"
    for name in (edition.collection.name, edition.pairs.name, edition.choice.name, "Throw & Catch",
                 "GRAND TOTAL", edition.provenance_label):
        assert name in text
    for icon in edition.choice.icons:  # one box per activity / treasure, labelled
        assert icon.name in text or all(w in text for w in icon.name.split())
    if edition.route is not None:
        assert edition.route.name in text
        assert all(str(t) in text for t in edition.route.tiers)


@pytest.mark.parametrize("edition_id", list(EDITIONS))
def test_score_sheet_fits_its_frame(edition_id):
    from printables.scorepad import DESIGN_H

    assert measure_template(EDITIONS[edition_id]) <= DESIGN_H + 0.01


@pytest.mark.parametrize("edition_id", list(EDITIONS))
def test_no_text_runs_off_the_score_sheet(edition_id, tmp_path):
    from printables.scorepad import DESIGN_H, DESIGN_W

    out = tmp_path / "pad.pdf"
    render_scorepad(EDITIONS[edition_id], out, PadOptions(sheets=1, names=("Bartholomew Maximilian Longname",)))
    runs = text_runs(out, 0, local=True)
    assert len(runs) > 50
    for text, x, y, width, size in runs:
        assert x >= -0.01 and x + width <= DESIGN_W + 0.01, f"{text!r} runs past the sheet's side"
        assert y >= 0 and y + size <= DESIGN_H + 0.01, f"{text!r} runs past the sheet's top or bottom"


def test_reference_tables_are_printed_where_players_need_them(australia, tmp_path):
    out = tmp_path / "au.pdf"
    render_scorepad(australia, out, PadOptions(sheets=1))
    (text,) = page_texts(out)
    # activity table: icons 1..6 → points 0, 2, 4, 7, 10, 15 (each count drawn above its points)
    assert "Icons Points 1 0 2 2 3 4 4 7 5 10 6 15" in text
    assert "double" in text
    europe = tmp_path / "eu.pdf"
    render_scorepad(europe_like(), europe, PadOptions(sheets=1))
    (text,) = page_texts(europe)
    assert "half, rounded up" in text
    assert all(s in text for s in ("2 players", "3 players", "4 players", "4 pts", "3 pts", "2 pts"))
    assert "3–4 pl." in text  # the passport's third prize needs 3 or 4 players
    usa = tmp_path / "usa.pdf"
    render_scorepad(usa_like(), usa, PadOptions(sheets=1))
    (text,) = page_texts(usa)
    assert "must beat last round" in text
    assert "WEST COAST" in text and "EAST COAST" in text


@pytest.mark.parametrize(("paper", "compact", "sheets", "pages", "size"), [
    ("a4", False, 3, 3, A4), ("letter", False, 2, 2, LETTER),
    ("a4", True, 3, 2, landscape(A4)), ("letter", True, 4, 2, landscape(LETTER)),
])
def test_score_pad_pages_and_paper(australia, tmp_path, paper, compact, sheets, pages, size):
    out = tmp_path / "pad.pdf"
    assert render_scorepad(australia, out, PadOptions(sheets=sheets, paper=paper, compact=compact)) == pages
    assert page_sizes(out) == [(round(size[0], 1), round(size[1], 1))] * pages


def test_pre_printed_names_go_round_the_sheets(australia, tmp_path):
    out = tmp_path / "pad.pdf"
    render_scorepad(australia, out, PadOptions(sheets=5, names=("Ann", "Bob")))
    texts = page_texts(out)
    assert ["Ann" in t for t in texts] == [True, False, True, False, True]
    assert ["Bob" in t for t in texts] == [False, True, False, True, False]
    compact = tmp_path / "compact.pdf"
    render_scorepad(australia, compact, PadOptions(sheets=2, compact=True, names=("Ann", "Bob")))
    (text,) = page_texts(compact)
    assert "Ann" in text and "Bob" in text


def test_score_pad_refuses_no_sheets(australia, tmp_path):
    out = tmp_path / "pad.pdf"
    with pytest.raises(ValueError, match="at least 1 sheet"):
        render_scorepad(australia, out, PadOptions(sheets=0))
    assert not out.exists()


def test_score_pad_reuses_one_drawing_and_subsets_its_fonts(australia, tmp_path):
    from benchmarks.print import embedded_fonts

    one, many = tmp_path / "one.pdf", tmp_path / "many.pdf"
    render_scorepad(australia, one, PadOptions(sheets=1))
    render_scorepad(australia, many, PadOptions(sheets=50))
    extra_per_sheet = (many.stat().st_size - one.stat().st_size) / 49
    assert extra_per_sheet < 2000, f"each extra sheet adds {extra_per_sheet:.0f} bytes: the form is not reused"
    fonts = embedded_fonts(many.read_bytes())
    assert fonts and all(re.match(r"[A-Z]{6}\+DejaVu", f) for f in fonts), fonts


# --- card sheets ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", list(EDITIONS))
def test_card_sheet_shows_every_card(edition_id, tmp_path):
    edition = EDITIONS[edition_id]
    out = tmp_path / "cards.pdf"
    assert render_cards(edition, out) == 4
    text = " ".join(page_texts(out))
    for card in edition.cards:
        assert card.site in text, f"card {card.letter}: {card.site!r} missing"
    assert page_sizes(out) == [(round(A4[0], 1), round(A4[1], 1))] * 4
    # only Australia's card list is the publisher's: the others say on every card whose design they are
    assert text.count(edition.provenance_label) == len(edition.cards)


@pytest.mark.parametrize("edition_id", list(EDITIONS))
def test_card_text_stays_inside_the_card(edition_id, tmp_path):
    from printables.cards import FRAME

    out = tmp_path / "cards.pdf"
    render_cards(EDITIONS[edition_id], out, bleed=True)
    grid = card_grid("a4", True)
    for page in range(4):
        runs = text_runs(out, page)
        for text, x, y, width, size in runs:
            trim = next((t for t in grid.trims if t.x <= x <= t.right and t.y <= y <= t.top), None)
            assert trim is not None, f"page {page + 1}: {text!r} is not on a card"
            panel = trim.inset(FRAME)
            assert panel.x <= x and x + width <= panel.right + 0.01, f"{text!r} overflows its card sideways"
            assert panel.y <= y - 0.25 * size and y + 0.75 * size <= panel.top, f"{text!r} overflows vertically"


def test_long_site_names_are_kept_whole(tmp_path):
    out = tmp_path / "cards.pdf"
    render_cards(usa_like(), out)
    assert LONG_SITE in page_texts(out)[0]


@pytest.mark.parametrize(("paper", "bleed", "backs", "pages", "size"), [
    ("a4", False, True, 8, A4), ("a4", True, False, 4, A4), ("a4", True, True, 8, A4),
    ("letter", False, False, 4, LETTER),
])
def test_card_sheet_pages_and_paper(australia, tmp_path, paper, bleed, backs, pages, size):
    out = tmp_path / "cards.pdf"
    assert render_cards(australia, out, paper=paper, bleed=bleed, backs=backs) == pages
    assert page_sizes(out) == [(round(size[0], 1), round(size[1], 1))] * pages


def qr_codes(image: Image.Image) -> list[tuple[str, float, float]]:
    """(text, centre x, centre y as fractions of the page) of every QR code found."""
    found = []
    for result in zxingcpp.read_barcodes(np.asarray(image)):
        if result.format == zxingcpp.BarcodeFormat.QRCode:
            pos = result.position
            cx = (pos.top_left.x + pos.bottom_right.x) / 2 / image.width
            cy = (pos.top_left.y + pos.bottom_right.y) / 2 / image.height
            found.append((result.text, cx, cy))
    return found


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_qr_code_decodes_to_its_edition_and_letter(edition_id, tmp_path):
    edition = EDITIONS[edition_id]
    out = tmp_path / "cards.pdf"
    render_cards(edition, out, bleed=True)
    grid = card_grid("a4", True)
    seen = []
    for page in range(1, 5):
        image = rendered(out, page, 150, tmp_path)
        cards_on_page = edition.cards[(page - 1) * 9:page * 9]
        codes = qr_codes(image)
        assert len(codes) == len(cards_on_page), f"page {page}: {len(codes)} codes for {len(cards_on_page)} cards"
        for text, cx, cy in codes:
            ed, letter = parse_card_payload(text)
            assert ed == edition.id
            # the code sits on the card of that letter
            slot = [c.letter for c in cards_on_page].index(letter)
            trim = grid.trims[slot]
            assert trim.x / grid.page_width < cx < trim.right / grid.page_width
            assert 1 - trim.top / grid.page_height < cy < 1 - trim.y / grid.page_height
            seen.append(letter)
    assert sorted(seen) == sorted(edition.letters)


def test_backs_print_behind_their_fronts(australia, tmp_path):
    """Page 8 holds the back of the single card on page 7 (top-left): after a long-edge flip it is at
    the top right of the back page, and nowhere else is printed but crop marks."""
    out = tmp_path / "cards.pdf"
    render_cards(australia, out, backs=True)
    grid = card_grid("a4", False)
    front, back = np.asarray(rendered(out, 7, 40, tmp_path)), np.asarray(rendered(out, 8, 40, tmp_path))
    h, w = back.shape

    def ink_in(img, rect):
        x0, x1 = int(rect.x / grid.page_width * w) + 2, int(rect.right / grid.page_width * w) - 2
        y0, y1 = int((1 - rect.top / grid.page_height) * h) + 2, int((1 - rect.y / grid.page_height) * h) - 2
        return (img[y0:y1, x0:x1] < 128).mean()

    assert ink_in(front, grid.trims[0]) > 0.05 and ink_in(front, grid.trims[2]) == 0
    assert ink_in(back, grid.trims[2]) > 0.5 and ink_in(back, grid.trims[0]) == 0
    assert all(ink_in(back, grid.trims[s]) == 0 for s in range(3, 9))


# --- the command line ----------------------------------------------------------------------------------

def run(*args: str):
    return runner.invoke(app, ["print", *args])


def said(result) -> str:
    """The command's output with rich's line wrapping undone."""
    return " ".join(result.output.split())


def test_cli_writes_a_pad_and_cards(tmp_path):
    pad = tmp_path / "pad.pdf"
    result = run("scorepad", "--edition", "australia", "--sheets", "3", "--players-name", "Ann,Bob",
                 "-o", str(pad))
    assert result.exit_code == 0, result.output
    assert len(PdfReader(pad).pages) == 3 and "wrote" in result.output
    cards = tmp_path / "cards.pdf"
    result = run("cards", "--edition", "australia", "--backs", "--bleed", "-o", str(cards))
    assert result.exit_code == 0, result.output
    assert len(PdfReader(cards).pages) == 8
    compact = tmp_path / "compact.pdf"
    assert run("scorepad", "--compact", "--paper", "letter", "--sheets", "3", "-o", str(compact)).exit_code == 0
    assert page_sizes(compact) == [(792.0, 612.0)] * 2


def test_cli_sheets_default_to_one_per_name(tmp_path):
    pad = tmp_path / "pad.pdf"
    assert run("scorepad", "--players-name", "Ann, Bob, Cy", "-o", str(pad)).exit_code == 0
    assert len(PdfReader(pad).pages) == 3


@pytest.mark.parametrize(("args", "message"), [
    (["scorepad", "--edition", "narnia"], "unknown edition 'narnia'"),
    (["cards", "--edition", "narnia"], "unknown edition 'narnia'"),
    (["scorepad", "--sheets", "0"], "at least 1"),
    (["scorepad", "--sheets", "-3"], "at least 1"),
    (["cards", "--paper", "letter", "--bleed"], "letter paper"),
])
def test_cli_refuses_bad_input_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out.pdf"
    result = run(*args, "-o", str(out))
    assert result.exit_code != 0
    assert message in said(result)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [p for p in tmp_path.iterdir() if p.name == "tourpad-data"]


@pytest.mark.parametrize("command", ["scorepad", "cards"])
def test_cli_refuses_a_path_it_cannot_write(tmp_path, command):
    missing = tmp_path / "no-such-folder" / "out.pdf"
    result = run(command, "-o", str(missing))
    assert result.exit_code != 0 and "does not exist" in said(result)
    assert not missing.parent.exists()
    result = run(command, "-o", str(tmp_path))
    assert result.exit_code != 0 and "is a folder" in said(result)


def test_bench_print_reports_time_size_and_font_subsets():
    import json

    result = runner.invoke(app, ["bench", "print", "--sheets", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["pad_sheets"] == 3 and report["pad_bytes"] > 10_000
    assert report["fonts_all_subset"] is True
    assert report["pad_seconds_first_run"] >= report["pad_seconds_best_of_3"] > 0
    refused = runner.invoke(app, ["bench", "print", "--sheets", "0"])
    assert refused.exit_code != 0 and "at least 1" in said(refused)


def test_an_imported_deck_pack_prints_too(tmp_path):
    from scorer.packs import export_text

    pack = tmp_path / "big.toml"
    pack.write_text(export_text(big_region_pack(), "toml"))
    assert runner.invoke(app, ["deck", "import", str(pack)]).exit_code == 0
    cards = tmp_path / "cards.pdf"
    result = run("cards", "--edition", "big-region-test", "-o", str(cards))
    assert result.exit_code == 0, result.output
    text = " ".join(page_texts(cards))
    assert "Outback and Everything Else Combined" in text


def test_your_own_deck_prints_as_set_up_in_the_deck_editor(tmp_path):
    """A deck set up in the app's editor (its name, a region renamed) prints its score pad and its cards by
    the id Your decks shows (`--deck`)."""
    from scorer.packs import duplicate_deck
    from scorer.pad.deck_draft import DeckDraft

    draft = DeckDraft.open(duplicate_deck("usa").id)
    draft.set_name("Grandma's USA")
    draft.rename_region(0, "Far West")
    mine = draft.save()
    pad, cards = tmp_path / "pad.pdf", tmp_path / "cards.pdf"
    result = run("scorepad", "--deck", mine.id, "-o", str(pad))
    assert result.exit_code == 0, result.output
    assert "Grandma's USA" in said(result)
    assert "Grandma's USA" in page_texts(pad)[0] and "Far West" in page_texts(pad)[0]
    result = run("cards", "--deck", mine.id, "-o", str(cards))
    assert result.exit_code == 0, result.output
    first = page_texts(cards)[0]  # card A, in the renamed region, on the first page
    assert "Far West" in first and "Grandma's USA" in first and "owner's deck" in first


def test_an_icon_without_a_pictogram_shows_its_initials(tmp_path):
    from printables.icons import has_icon
    from rules.edition import compile_edition
    from rules.model import parse_edition

    doc = load_edition("australia").spec.model_dump(mode="json", exclude_none=True)
    doc.update(id="odd-icons", provenance="owner")
    doc["pairs"]["icons"][0]["name"] = "Zebra Crossing"
    for card in doc["cards"]:
        card["icons"] = ["Zebra Crossing" if i == "Kangaroos" else i for i in card["icons"]]
    edition = compile_edition(parse_edition(doc))
    assert not has_icon("Zebra Crossing")
    out = tmp_path / "cards.pdf"
    render_cards(edition, out)
    first_page = page_texts(out)[0]
    assert "ZC" in first_page and "Zebra Crossing" in first_page  # B (The Pinnacles) shows it
