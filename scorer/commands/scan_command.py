"""`tourpad scan IMAGE --edition australia`: read a player's drafted row from one photo of their cards;
`tourpad scan teach PHOTO --edition E --letters ABCDEFG`: learn the player's own printing of the cards
(`--forget` removes what was learned)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import click
import typer
from typer.core import TyperGroup

from scorer.commands.common import console, err_console, fail
from scorer.locale import N_, _, ngettext

READ_HELP = N_("Print the row's letters in draft order (Throw card first): tourpad's cards by their QR codes, the "
               "publisher's cards by their corner letter and number. Exit 1 with the problems named when the photo "
               "does not give a complete, valid row (unread positions show as ?), 2 when the file is no image.")
TEACH_HELP = N_("Teach tourpad your own printing of the cards: photograph 7 of them in a row, upright and a "
                "finger's width apart on a plain table, and give their letters left to right; four photos cover "
                "the deck. Teaching a card again replaces what was learned of it; --forget removes everything "
                "learned for the edition.")


class ReadUnlessTeach(TyperGroup):
    """`tourpad scan PHOTO …` reads a row (the hidden `read` command), as it always did; `tourpad scan teach …`
    teaches. Only a first word that names a subcommand (or asks for help) is one."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["read", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=ReadUnlessTeach, no_args_is_help=True, add_completion=False,
                  help=N_("Read a row of cards from a photo (`tourpad scan PHOTO --edition E`), or teach tourpad "
                          "your printing of the cards (`tourpad scan teach PHOTO --edition E --letters ABCDEFG`)."))


@app.command("read", help=READ_HELP)
def scan(
    image: Annotated[Path, typer.Argument(help=N_("photo of one player's 7 cards in a row (JPEG, PNG, …)"))],
    edition: Annotated[str, typer.Option(help=N_("edition of the game being scored"))] = "australia",
    taken: Annotated[str, typer.Option(help=N_("letters other players already have this round, e.g. ABC"))] = "",
    as_json: Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))] = False,
) -> None:
    from scorer.commands.engine_commands import edition_or_fail
    from scorer.scan.image import ScanImageError
    from scorer.scan.photo import scan_row
    from scorer.userfile import IMAGE_LIMIT, UserFileError, read_user_bytes, shown

    game_edition = edition_or_fail(edition)
    try:
        photo = read_user_bytes(image, _("a photo"), IMAGE_LIMIT)
    except UserFileError as err:
        fail(str(err))
    try:
        result = scan_row(photo, game_edition, taken=taken.strip().upper())
    except ScanImageError as err:
        fail(f"{shown(image)}: {err}")
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console.print(result.letters, highlight=False)
        for message in result.messages():
            err_console.print(f"[yellow]•[/] {message}", highlight=False)
    if not result.complete:
        raise typer.Exit(1)


@app.command("teach", help=TEACH_HELP)
def teach(
    photo: Annotated[Path | None, typer.Argument(
        help=N_("photo of 7 of your cards in a row, upright, a finger's width apart on a plain table"))] = None,
    edition: Annotated[str, typer.Option(help=N_("edition of your deck"))] = "australia",
    letters: Annotated[str, typer.Option(help=N_("the photo's cards, left to right, e.g. ABCDEFG"))] = "",
    forget: Annotated[bool, typer.Option("--forget", help=N_("remove everything learned for the edition"))] = False,
) -> None:
    from scorer.commands.engine_commands import edition_or_fail
    from scorer.pad.teach import TeachLettersError, check_letters, progress, still_to_teach
    from scorer.userfile import IMAGE_LIMIT, UserFileError, read_user_bytes

    game_edition = edition_or_fail(edition)
    if forget:
        if photo is not None or letters:
            fail(_("--forget takes no photo and no --letters: it removes everything learned for the edition"))
        count = forget_cards(game_edition)
        console.print(ngettext("forgot {n} learned card of {edition}", "forgot {n} learned cards of {edition}",
                               count).format(n=count, edition=game_edition.label), highlight=False)
        return
    if photo is None or not letters:
        fail(_("give a photo and its cards' letters: tourpad scan teach PHOTO --edition E --letters ABCDEFG "
               "(or --forget)"))
    try:
        row = check_letters(game_edition, letters)
    except TeachLettersError as err:
        fail(_("--letters {letters}: {problem}").format(letters=letters, problem=err))
    try:
        data = read_user_bytes(photo, _("a photo"), IMAGE_LIMIT)
    except UserFileError as err:
        fail(str(err))
    known = teach_cards(data, game_edition, row, photo)
    line = _("learned {letters}; {edition}: {progress}").format(
        letters=row, edition=game_edition.label, progress=progress(game_edition, known))
    rest = still_to_teach(game_edition.letters, known)
    if rest:
        line += " " + _("(still to teach: {letters})").format(letters=rest)
    console.print(line, highlight=False)


def teach_cards(data: bytes, edition, letters: str, photo: Path) -> str:
    """The letters known after teaching this photo; a photo that cannot teach ends the command with why."""
    from scorer.pad.teach import opencv_missing
    from scorer.userfile import UserFileError, shown

    try:
        from scorer.scan.faces import TeachError, teach_deck
        from scorer.scan.image import ScanImageError
    except ImportError as err:
        fail(opencv_missing(err))
    try:
        return teach_deck(data, edition, letters)
    except (ScanImageError, TeachError) as err:
        fail(f"{shown(photo)}: {err}")
    except UserFileError as err:  # the folder that keeps what was learned cannot be created
        fail(str(err))


def forget_cards(edition) -> int:
    from scorer.pad.teach import opencv_missing

    try:
        from scorer.scan.taught import forget_deck
    except ImportError as err:
        fail(opencv_missing(err))
    return forget_deck(edition)
