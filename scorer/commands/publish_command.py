"""`tourpad publish`: the app as an installable offline web app (see scorer.web.publish)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules.i18n import format_number
from scorer.commands.common import fail
from scorer.locale import N_, _, ngettext


def register(app: typer.Typer) -> None:
    @app.command("publish", help=N_("The score pad as a static web app running on the phone (Pyodide): every file "
                                    "in OUT, offline."))
    def publish(out: Annotated[Path, typer.Option("-o", "--out", help=N_("folder for the site (new or empty)"))],
                base_url: Annotated[str, typer.Option("--base-url", help=N_("path prefix the site is served "
                                                                            "under, e.g. /tourpad/"))] = "/") -> None:
        from scorer.web.publish import PublishError
        from scorer.web.publish import publish as build

        try:
            site = build(out, base_url)
        except PublishError as err:
            fail(str(err))
        print(ngettext("published {n} file, {size} MB, version {version}, in {folder}",
                       "published {n} files, {size} MB, version {version}, in {folder}", site.files).format(
            n=site.files, size=format_number(round(site.bytes / 1e6, 1)), version=site.version, folder=site.folder))
        print(_("serve the folder with any static file server, e.g. python3 -m http.server -d {folder}").format(
            folder=site.folder))
