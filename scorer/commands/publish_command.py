"""`tourpad publish`: the app as an installable offline web app (see scorer.web.publish)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scorer.commands.common import fail


def register(app: typer.Typer) -> None:
    @app.command("publish")
    def publish(out: Annotated[Path, typer.Option("-o", "--out", help="folder for the site (new or empty)")],
                base_url: Annotated[str, typer.Option("--base-url", help="path prefix the site is served "
                                                                         "under, e.g. /tourpad/")] = "/") -> None:
        """The score pad as a static web app running on the phone (Pyodide): every file in OUT, offline."""
        from scorer.web.publish import PublishError
        from scorer.web.publish import publish as build

        try:
            site = build(out, base_url)
        except PublishError as err:
            fail(str(err))
        print(f"published {site.files} files, {site.bytes / 1e6:.1f} MB, version {site.version}, in {site.folder}")
        print(f"serve the folder with any static file server, e.g. python3 -m http.server -d {site.folder}")
