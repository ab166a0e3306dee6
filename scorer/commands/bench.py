"""`tourpad bench …`: speed and size goals, measured (never asserted in unit tests)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from scorer.commands.common import console, fail, warn
from scorer.locale import N_, _, ngettext

app = typer.Typer(help=N_("Benchmarks: engine, print, table, taps, bots, scan."), no_args_is_help=True)

AsJson = Annotated[bool, typer.Option("--json", help=N_("machine-readable output"))]


def checkout_root(package_folder: Path = Path(__file__).resolve().parents[2]) -> Path | None:
    """The repository checkout this `scorer` runs from, when it has the benchmarks beside it: they are
    dev-only code (with the photo generators and scripted games the tests share), so the wheel leaves them
    out and an installed tourpad has none."""
    return package_folder if (package_folder / "benchmarks" / "__init__.py").is_file() else None


@app.callback()
def _benchmarks_from_checkout() -> None:
    root = checkout_root()
    if root is None:
        fail(_("tourpad bench runs from a checkout of tourpad's repository: the benchmarks (benchmarks/ beside "
               "scorer/) are not part of the installed package"))
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))


def report(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            console.print(f"{key}: {value}", highlight=False)


@app.command("engine", help=N_("Random-bot games/s through the engine vs the plain hand-written loop, interleaved in "
                               "one run."))
def engine(as_json: AsJson = False, games: int = 2000, edition: str = "australia", players: int = typer.Option(
        4, min=2, max=4), profile: bool = typer.Option(
        False, "--profile", help=N_("instead, cProfile the engine's side (its functions by own time)")),
        only: str | None = typer.Option(None, help=N_("instead, play one side's games untimed (engine or plain), "
                                                     "to count instructions under valgrind"))) -> None:
    from benchmarks import engine as bench_engine
    from scorer.commands.engine_commands import edition_or_fail

    if only is not None:
        if only not in ("engine", "plain"):
            raise typer.BadParameter(_("--only takes engine or plain, not {only!r}").format(only=only))
        bench_engine.play_only(edition_or_fail(edition), only, games, players=players)
        return
    if profile:
        print(bench_engine.profile(edition_or_fail(edition), games, players=players))
        return
    report(bench_engine.run(edition_or_fail(edition), games, players=players), as_json)


PHONES = ("both", "sse", "flet")


@app.command("table", help=N_("Table mode on loopback, full games submitted concurrently. Through the API: "
                              "submissions/s and p50/p95 from a submission to its event on the other seats' streams. "
                              "With phones as Flet sessions: p50/p95/max from a submission to the patch that shows it "
                              "on the other seats' sheets (goal at 1 × 4: p95 <= 100 ms)."))
def table(as_json: AsJson = False, tables: int = 8, seats: int = 4, games: int = 3, edition: str = "australia",
          phones: str = typer.Option("both", help=N_("sse: seats through the JSON API and the event stream (a host "
                                                      "on 127.0.0.1); flet: every seat's phone a real Flet session "
                                                      "of the app, at 1 table and at --tables; both")),
          flet_games: int = typer.Option(1, help=N_("games per table with Flet phones (each redraw costs far more "
                                                    "than an event)")),
          turns: bool = typer.Option(False, help=N_("Flet phones save one at a time (each once the last is shown on "
                                                    "every phone) instead of all at once")),
          profile: bool = typer.Option(False, help=N_("through the API: trace the host (TOURPAD_TABLE_TRACE) and "
                                                      "report where a submission's time goes, step by step"))) -> None:
    from scorer.commands.engine_commands import edition_or_fail

    if phones not in PHONES:
        fail(_("--phones is one of {choices}, not {phones!r}").format(choices=", ".join(PHONES), phones=phones))
    from scorer.table.service import MAX_SEATS, MIN_SEATS

    if not MIN_SEATS <= seats <= MAX_SEATS:
        fail(_("--seats: a table has {low} to {high} seats, not {seats}").format(low=MIN_SEATS, high=MAX_SEATS,
                                                                                 seats=seats))
    for name, value in (("--tables", tables), ("--games", games), ("--flet-games", flet_games)):
        if value < 1:
            fail(_("{option} must be at least 1 (got {value})").format(option=name, value=value))
    chosen = edition_or_fail(edition)
    result: dict = {}
    if phones in ("sse", "both"):
        from benchmarks import table as bench_table

        result["sse"] = bench_table.run(chosen, tables, seats, games, profile)
    if phones in ("flet", "both"):
        from benchmarks import table_flet

        result["flet_sessions"] = [table_flet.run(chosen, n, seats, flet_games, turns)
                                   for n in sorted({1, tables})]
    if as_json:
        print(json.dumps(result["sse"] if phones == "sse" else result, indent=2))
        return
    if "sse" in result:
        sse = dict(result["sse"])
        steps = sse.pop("breakdown", None)
        report(sse, as_json=False)
        if steps is not None:
            console.print(breakdown_table(steps))
    if "flet_sessions" in result:
        console.print(flet_table(result["flet_sessions"]))


def breakdown_table(steps: dict):
    """`tourpad bench table --profile`: a submission's way to the other seats, step by step."""
    from rich.table import Table

    shown = Table(title=f"A submission until another seat has parsed its event ({steps['events_traced']} traced; "
                        f"{steps['writes_per_commit_mean']} writes per commit)")
    for column in ("step", "mean ms", "p50 ms", "p95 ms"):
        shown.add_column(column, justify="left" if column == "step" else "right")
    for row in [*steps["event_steps"], {"step": "whole way", **steps["total"]}, *steps["ack_steps"]]:
        shown.add_row(row["step"], *(str(row[k]) for k in ("mean_ms", "p50_ms", "p95_ms")))
    return shown


def flet_table(runs: list[dict]):
    from rich.table import Table

    shown = Table(title="Phones as Flet sessions: a submission until each other seat's sheet shows it "
                        f"(saves {runs[0]['saves']})")
    for column in ("size", "subs", "updates", "p50 ms", "p95 ms", "max ms", "subs/s", "unlike engine"):
        shown.add_column(column, justify="right")
    for run in runs:
        shown.add_row(f"{run['tables']} × {run['seats']}", str(run["submissions"]),
                      f"{run['updates_measured']}/{run['updates_expected']}", str(run["update_latency_p50_ms"]),
                      str(run["update_latency_p95_ms"]), str(run["update_latency_max_ms"]),
                      str(run["submissions_per_s"]), f"{run['totals_unlike_engine']}/{run['totals_compared']}")
    return shown


def bots_table(result: dict):
    """`tourpad bench bots`: one line per measured bot."""
    from rich.table import Table

    shown = Table(title=_("Time per decision, {edition}, {games} games against {opponents} bots").format(
        edition=result["edition"], games=result["games"], opponents=result["opponents"]))
    for column in (_("bot"), _("decisions"), _("median s"), _("p95 s"), _("max s"), _("CPU median s"),
                   _("CPU p95 s"), _("goal met")):
        shown.add_column(column, justify="right")
    for run in result["runs"]:
        shown.add_row(run["bot"], str(run["decisions"]), str(run["median_seconds"]), str(run["p95_seconds"]),
                      str(run["max_seconds"]), str(run["cpu_median_seconds"]), str(run["cpu_p95_seconds"]),
                      _("yes") if run["meets_goal"] else _("no"))
    return shown


@app.command("bots", help=N_("Each bot's time per decision (median, p95, max; wall-clock and CPU) over whole "
                             "4-player games against `opponents`."))
def bots(as_json: AsJson = False, games: int = typer.Option(5, min=1), edition: str = "australia",
         bot: str = typer.Option("hard,expert", help=N_("the bots to time, comma-separated")),
         opponents: str = "normal") -> None:
    from benchmarks import bots as bench_bots
    from rules.bots import bot_names
    from scorer.commands.engine_commands import edition_or_fail

    names = [name.strip() for name in bot.split(",") if name.strip()]
    for name in [*names, opponents]:
        if name not in bot_names():
            fail(_("unknown bot {name!r}; choose from {known}").format(name=name, known=", ".join(bot_names())))
    result = bench_bots.run_each(edition_or_fail(edition), games, names, opponents)
    if as_json:
        report(result, True)
    else:
        console.print(bots_table(result))


@app.command("publish", help=N_("The web app: MB on the wire and files sent twice on a first visit, time to a usable "
                                "home screen on a 10 Mbit/s link (first and cached visit) in headless Chromium, MB an "
                                "update of our code moves, hard-bot decision time inside Pyodide (goals: <= 15 MB, "
                                "first visit <= 20 s, cached start <= 5 s, update <= 1 MB, median <= 150 ms)."))
def publish(as_json: AsJson = False, site: Path | None = typer.Option(
        None, help=N_("a folder from `tourpad publish` (default: publish one to a temporary folder)")),
        bot_games: int = typer.Option(1, min=1, help=N_("4-player games timing the hard bot in Pyodide"))) -> None:
    from benchmarks import publish as bench_publish

    report(bench_publish.run(site, bot_games), as_json)


@app.command("taps", help=N_("Quick taps on the letter keypad in headless Chromium (390×844) at 60, 100 and 150 ms "
                             "apart: on the app `tourpad app` serves, at a table seat while 1 × 4 and 8 × 4 tables "
                             "play on the same host, and in the published web app. Letters registered / sent and tap "
                             "→ drawn p50/p95 (goals: every letter, in order; p95 <= 100 ms served and with 1 × 4, "
                             "<= 250 ms with 8 × 4)."))
def taps(as_json: AsJson = False,
         case: list[str] = typer.Option(None, "--case", help=N_(
             "a case to run (repeat for several): served, table-1x4, table-8x4, web; default: all")),
         speed: list[int] = typer.Option(None, "--speed", help=N_(
             "ms between taps (repeat for several); default: 60, 100 and 150")),
         repeats: int = typer.Option(2, min=1, help=N_("rows tapped per case and speed"))) -> None:
    from benchmarks import taps as bench_taps

    cases = tuple(case or bench_taps.CASES)
    unknown = [c for c in cases if c not in bench_taps.CASES]
    if unknown:
        fail(_("--case is one of {choices}, not {case!r}").format(choices=", ".join(bench_taps.CASES),
                                                                  case=unknown[0]))
    speeds = tuple(speed or bench_taps.SPEEDS_MS)
    if any(s < 1 for s in speeds):
        fail(_("--speed must be at least 1 ms"))
    result = bench_taps.run(cases, speeds, repeats)
    if as_json:
        report(result, True)
        return
    from rich.table import Table

    shown = Table(title=_("Letter keypad: {row} tapped {repeats} times per case and speed").format(
        row=result["row"], repeats=repeats))
    for column in (_("case"), _("ms apart"), _("registered / sent"), _("in order"), _("tap → drawn p50 ms"),
                   _("p95 ms")):
        shown.add_column(column, justify="right")
    for row in result["runs"]:
        shown.add_row(row["case"], str(row["interval_ms"]), f"{row['registered']} / {row['sent']}",
                      _("yes") if row["in_order"] else _("no"), str(row["tap_to_drawn_p50_ms"]),
                      str(row["tap_to_drawn_p95_ms"]))
    console.print(shown)
    console.print(_("Goal met: {answer}").format(answer=_("yes") if result["meets_goal"] else _("no")),
                  highlight=False)


PHONE_TABLE_ROWS = (
    ("save_to_drawn_on_others", N_("a save → folded on each other phone")),
    ("save_to_drawn_on_other_guests", N_("… on each other guest phone")),
    ("save_to_event_in_other_guests_pages", N_("… its event in each other guest's page (page clock)")),
    ("save_acknowledged", N_("a save acknowledged to its phone")),
    ("channel_open", N_("a channel open, from the host's offer")),
    ("relay_call", N_("one call of the bench's relay into a page")),
)


@app.command("phone-table", help=N_("A phone-hosted table: one headless Chromium page per phone with the app's "
                                    "peer.js (real WebRTC data channels on loopback, set up by the connection "
                                    "codes), each phone's Python in this process (the host phone's table on its "
                                    "thread-free store). Every seat saves its rows of engine-played games: a save "
                                    "→ folded on each other phone, p50/p95. Not included: Pyodide, the page ⇄ "
                                    "worker hop (a Playwright call stands in: an upper bound), the Flet redraw."))
def phone_table(as_json: AsJson = False,
                guests: int = typer.Option(3, min=1, max=3, help=N_("guest phones beside the host phone")),
                games: int = typer.Option(3, min=1, max=20, help=N_("whole games played at the table"))) -> None:
    from benchmarks import phone_table as bench_phone_table

    result = bench_phone_table.run(guests, games)
    if as_json:
        report(result, True)
        return
    from rich.table import Table

    shown = Table(title=_("Phone-hosted table: {phones} phones, {saves} saves ({edition})").format(
        phones=result["phones"], saves=result["saves"], edition=result["edition"]))
    for column in (_("what"), _("p50 ms"), _("p95 ms"), _("max ms"), _("samples")):
        shown.add_column(column, justify="right")
    for key, label in PHONE_TABLE_ROWS:
        row = result[key]
        shown.add_row(_(label), str(row["p50_ms"]), str(row["p95_ms"]), str(row["max_ms"]), str(row["n"]))
    console.print(shown)


@app.command("print", help=N_("Render time and file size of a 50-sheet score pad (goal < 2 s, vector, fonts subset) "
                              "and of a card sheet."))
def print_(as_json: AsJson = False, edition: str = "australia", sheets: int = 50, paper: str = "a4") -> None:
    from benchmarks import print as bench_print
    from scorer.commands.engine_commands import edition_or_fail

    if sheets < 1:
        fail(_("--sheets must be at least 1 (got {count})").format(count=sheets))
    report(bench_print.run(edition_or_fail(edition), sheets, paper), as_json)


@app.command("balance", help=N_("Deck balance: mean points per category and per icon type, region bonuses won, "
                                "route bonuses."))
def balance(as_json: AsJson = False, games: int = 1000, edition: str = "europe", players: int = 4,
            bot: str = "greedy", seed: int = 1) -> None:
    from benchmarks import balance as bench_balance
    from scorer.commands.engine_commands import edition_or_fail

    report(bench_balance.run(edition_or_fail(edition), games, players, bot, seed), as_json)


@app.command("imitate", help=N_("Fit the expert's model of a pick to the hard bot's picks in seeded games: the "
                                "weights, and how often the fitted, shipped and hard's own weights name the pick on "
                                "held-out games."))
def imitate(as_json: AsJson = False, edition: str = "australia",
            players: int = typer.Option(4, min=2, max=4), games: int = typer.Option(100, min=5),
            seed: int = 5) -> None:
    from benchmarks import imitation
    from scorer.commands.engine_commands import edition_or_fail

    report(imitation.run(edition_or_fail(edition), players, games, seed), as_json)


@app.command("round-value", help=N_("Fit what a sheet at a round's end is worth beyond its points (the expert's "
                                    "value of a round's end) to who wins seeded games of hard bots, and how much "
                                    "more it says about the winner on held-out games."))
def round_value(as_json: AsJson = False, edition: str = "australia",
                players: int = typer.Option(4, min=3, max=4), games: int = typer.Option(1200, min=10),
                seed: int = 13) -> None:
    from benchmarks import round_value as bench_round_value
    from scorer.commands.engine_commands import edition_or_fail

    try:
        result = bench_round_value.run(edition_or_fail(edition), players, games, seed)
    except bench_round_value.FitError as err:
        fail(str(err))
    report(result, as_json)


@app.command("race", help=N_("Race Around Europe: journey validator checks/s, best-fix searches/s, normal-vs-easy "
                             "games/s."))
def race(as_json: AsJson = False, checks: int = 200_000, games: int = 200) -> None:
    from benchmarks import race as bench_race

    report(bench_race.run(checks=checks, games=games), as_json)


@app.command("scan", help=N_("Synthetic row photos (everyday, far, blurred, compressed, dim in turn) read complete "
                             "and in order (bar ≥ 99.5 %), median and p95 decode time (bar: median ≤ 100 ms), per "
                             "case. --style publisher: the publisher's printed cards, per bundled edition, after "
                             "teaching and without (goals ≥ 97 %, no wrong letter shown as certain, median ≤ 1 s)."))
def scan(as_json: AsJson = False, photos: int = typer.Option(400, min=1, help=N_("how many photos (cases in turn)")),
         seed: int = 2026, edition: str = "australia",
         qr_mm: float | None = typer.Option(None, help=N_("card code size incl. quiet zone, to try another design; "
                                                           "default: the printed cards' (printed faces)")),
         style: str = typer.Option("tourpad", help=N_("tourpad (our QR cards), publisher (the boxed game's "
                                                      "printed cards: every bundled edition), publisher-held-out "
                                                      "(printings and rows the reader is never tuned on) or "
                                                      "publisher-tuning (those it is tuned on)")),
         reader: str = typer.Option("host", help=N_("host (tourpad scan) or web: the published web app's code "
                                                    "reader in Chromium against tourpad scan on the same photos "
                                                    "(bar ≥ 98 %, no wrong letter)")),
         first: int = typer.Option(0, min=0, help=N_("with --reader web: start at this photo of the set (a long "
                                                     "set in parts)"))) -> None:
    from scorer.commands.engine_commands import edition_or_fail

    if reader == "web":
        from benchmarks import scan_web
        from scorer.web.code_reader import ReaderMissing

        try:
            result = scan_web.run(edition_or_fail(edition), photos, seed, first=first)
            if not as_json:  # each photo's time is for joining parts' reports, not for reading
                for part in ("web_reader", "tourpad_scan"):
                    result[part].pop("ms_each", None)
            report(result, as_json)
        except ReaderMissing as err:
            fail(str(err))
        return
    if reader != "host":
        fail(_("unknown --reader {reader}: host or web").format(reader=repr(reader)))

    if style in ("publisher", "publisher-held-out", "publisher-tuning"):
        from benchmarks import scan_publisher
        from rules.editions import bundled_ids

        results = [scan_publisher.run(edition_or_fail(e), photos, seed, held_out=style == "publisher-held-out",
                                       tuning=style == "publisher-tuning")
                   for e in bundled_ids()]
        if as_json:
            print(json.dumps({"editions": results}, indent=2))
            return
        for result in results:
            report(result, False)
        return
    if style != "tourpad":
        fail(_("unknown --style {style}: tourpad, publisher, publisher-held-out or "
                "publisher-tuning").format(style=repr(style)))
    from benchmarks import scan as bench_scan
    from benchmarks.scan_photos import QR_MM

    report(bench_scan.run(edition_or_fail(edition), photos, seed, qr_mm=qr_mm or QR_MM), as_json)


@app.command("strength", help=N_("A line-up's win rates over thousands of games, over as many sessions as it takes: "
                                 "every finished chunk of games is appended to a record kept in the repository "
                                 "(benchmarks/strength-records/), so a later run, even on a fresh clone, plays only "
                                 "the games not recorded yet. The report over the first --games games is `tourpad sim "
                                 "--rotate`'s for the same seed; games/s are per CPU second."))
def strength(as_json: AsJson = False, edition: str = typer.Option("australia", help=N_("edition id")),
             players: int = typer.Option(4, min=2, max=4, help=N_("players at the table")),
             bots: str = typer.Option("expert,hard,hard,hard", help=N_(
                 "comma-separated line-up, one bot per seat (seats are rotated), as `tourpad sim --bots`")),
             games: int = typer.Option(2000, min=1, help=N_("the games to report on: the record's first N, "
                                                            "played if not recorded yet")),
             seed: int = typer.Option(2026, help=N_("seed of the deals (the same seed plays the same games)")),
             workers: int = typer.Option(1, min=1, max=16, help=N_("processes to play games in")),
             expert_simulations: int | None = typer.Option(None, min=1, help=N_(
                 "the expert bot's rollouts per decision (default: its own, about a tenth of a second per "
                 "decision)")),
             record: Path | None = typer.Option(None, help=N_(
                 "the record to resume or start (default: one in the repository's benchmarks/strength-records/, named "
                 "after the edition, players, bots and seed)"))) -> None:
    from benchmarks import strength as bench_strength
    from rules.i18n import format_number, format_percent
    from scorer.commands.common import err_console
    from scorer.commands.engine_commands import edition_or_fail
    from scorer.commands.sim_tables import print_simulation

    chosen = edition_or_fail(edition)
    line_up = bots.split(",")

    def progress(done: bench_strength.Progress) -> None:
        err_console.print(_("{done}/{target} games; entry 1 ({bot}) wins {share}").format(
            done=done.games_counted, target=done.games_target, bot=line_up[0].strip(),
            share=format_percent(done.entry_one_win_share, 1)), highlight=False)

    try:
        with bench_strength.stop_requests():
            run = bench_strength.run(chosen, players, line_up, games, seed, workers, expert_simulations, record,
                                     on_progress=None if as_json else progress, on_warning=warn)
    except bench_strength.StrengthError as err:
        fail(str(err))
    except OSError as err:
        fail(_("cannot write the record: {error}").format(error=err))
    except KeyboardInterrupt:
        fail(_("stopped: every finished chunk of games is recorded; the same command goes on from there"), code=130)
    if as_json:
        print(json.dumps(run.as_dict(), indent=2))
        return
    counted = run.report["games"]
    print_simulation({**run.report, "games_per_second": round(counted / run.cpu_seconds, 2) if run.cpu_seconds
                      else 0.0}, chosen.category_names())
    console.print(ngettext("Record {path}: {n} game recorded", "Record {path}: {n} games recorded",
                           run.games_recorded).format(path=run.record, n=run.games_recorded), highlight=False)
    if run.missing:
        console.print(_("Not counted above: games {ranges}, recorded in a chunk that runs past --games {games} "
                        "(chunks are {chunk} games)").format(
            ranges=", ".join(str(first) if last - first == 1 else f"{first}–{last - 1}"
                          for first, last in run.missing), games=run.games_target,
            chunk=bench_strength.CHUNK_GAMES), highlight=False)
    console.print(_("CPU time of the counted games: {seconds} s ({per_game} s a game)").format(
        seconds=format_number(run.cpu_seconds), per_game=format_number(round(run.cpu_seconds / counted, 3))),
        highlight=False)


def file_commands() -> typer.Typer:
    """The commands that read a person's file, on an app of their own: what `bench fuzz-files` runs in-process
    (the command line's own app is built above this layer)."""
    from scorer.commands import engine_commands, race_commands
    from scorer.commands.scan_command import app as scan_app

    commands = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    engine_commands.register(commands)
    race_commands.register(commands)
    commands.add_typer(scan_app, name="scan")
    return commands


@app.command("fuzz-files", help=N_("A seeded fuzz of every file the command line and the app read (game records, "
                                   "deck and board packs, games backups, photos): random bytes, truncations, byte "
                                   "edits, deep nesting, huge numbers, wrong types, escapes in file names. Per "
                                   "reader: inputs, accepted, refused, tracebacks, bad inputs accepted, multi-line "
                                   "refusals (goal: no traceback, no bad input accepted, every refusal one line)."))
def fuzz_files(as_json: AsJson = False,
               inputs: int = typer.Option(1000, min=1, help=N_("how many files to make")),
               seed: int = typer.Option(1, help=N_("seed of the mutations (the same seed makes the same files)"))
               ) -> None:
    from rich.table import Table

    from benchmarks import fuzz_files as bench_fuzz

    result = bench_fuzz.run(file_commands(), inputs, seed)
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    from rich import box

    columns = {"inputs": _("inputs"), "accepted": _("accepted"), "refused": _("refused"),
               "tracebacks": _("tracebacks"), "bad_inputs_accepted": _("bad inputs\naccepted"),
               "multi_line_refusals": _("multi-line\nrefusals")}
    # no vertical rules: the seven columns then fit a pipe's 80 characters with every heading whole
    shown = Table(title=_("{files} files, seed {seed}").format(files=result["files"], seed=seed), box=box.SIMPLE_HEAD,
                  pad_edge=False, show_edge=False, padding=(0, 1), collapse_padding=True)
    shown.add_column(_("reader"), no_wrap=True)
    for title in columns.values():
        shown.add_column(title, justify="right", min_width=max(map(len, title.splitlines())))
    for kind, tally in result["kinds"].items():
        shown.add_row(kind, *(str(tally[column]) for column in columns))
    shown.add_row(_("total"), *(str(result["total"][column]) for column in columns), style="bold")
    console.print(shown)
    for kind, tally in result["kinds"].items():
        for example in tally["examples"]:
            warn(f"{kind}: {example}")
