"""Writing a PDF safely: the file appears complete or not at all (a failed render leaves nothing)."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from printables.locale import _


class OutputError(OSError):
    """The PDF cannot be written where asked; the message names the path and the reason."""


def check_writable(path: Path) -> None:
    """Refuse early (before rendering) a target in a missing or read-only folder, or a folder itself."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise OutputError(_("{path} is a folder; give a file name such as {example}").format(
            path=path, example=path / "out.pdf"))
    if not folder.is_dir():
        raise OutputError(_("cannot write {path}: folder {folder} does not exist").format(path=path, folder=folder))
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(_("cannot write {path}: permission denied").format(path=path))


def write_pdf(target: Path | io.BufferedIOBase, draw: Callable[[Canvas], None], *, title: str,
              pagesize: tuple[float, float]) -> None:
    """Render with ``draw`` into ``target`` (a path, written atomically, or a binary stream)."""
    if not isinstance(target, Path):
        canvas = _new_canvas(target, title, pagesize)
        draw(canvas)
        canvas.save()
        return
    check_writable(target)
    fd, tmp = tempfile.mkstemp(prefix=".tourpad-", suffix=".pdf", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            canvas = _new_canvas(handle, title, pagesize)
            draw(canvas)
            canvas.save()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a PDF is an ordinary file
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _new_canvas(handle, title: str, pagesize: tuple[float, float]) -> Canvas:
    # invariant=1 gives byte-identical files for identical input (no timestamps or random ids).
    from printables.fonts import SANS, register_fonts

    register_fonts()
    # Our own font from the start, so no unembedded standard font (Helvetica) is referenced.
    canvas = Canvas(handle, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=SANS)
    canvas.setTitle(title)
    canvas.setAuthor("tourpad")
    canvas.setCreator("tourpad printables")
    return canvas
