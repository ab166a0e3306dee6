"""Opening a photo to scan: one loader and one error for both readers (tourpad's QR codes in `scorer.scan`,
the publisher's printed cards in `scorer.scan_cards`), so either names a bad file the same way.

PIL only: the app's screens import it through `scorer.scan` and it must stay light.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from scorer.locale import _


class ScanImageError(ValueError):
    """The file is not an image we can read; the message says so in the user's terms."""


def load_photo(source: bytes | bytearray | str | Path | Image.Image, mode: str = "L") -> Image.Image:
    """The photo in `mode` ("L" grey or "RGB"), upright as the phone meant it (EXIF rotation applied);
    ScanImageError otherwise."""
    # Pillow warns on stderr of what it skips in a damaged file (a truncated EXIF tag, …): the photo is then
    # either read or refused with one message of ours, and a warning would add lines to it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _load_photo(source, mode)


def _load_photo(source: bytes | bytearray | str | Path | Image.Image, mode: str) -> Image.Image:
    if isinstance(source, Image.Image):
        image = source
    else:
        try:
            data = Path(source).read_bytes() if isinstance(source, str | Path) else bytes(source)
        except OSError as err:
            raise ScanImageError(_("cannot read {file}: {error}").format(file=source, error=err.strerror or err)
                                 ) from err
        if not data:
            raise ScanImageError(_("the image file is empty"))
        try:
            image = Image.open(io.BytesIO(data))
            if image.format == "JPEG":
                # Decode only the channels needed, and a huge photo at half size (its marks stay large
                # enough): both happen inside the JPEG decoder, far cheaper than converting afterwards.
                too_big = image.width * image.height > 16_000_000
                image.draft(mode, (image.width // 2, image.height // 2) if too_big else image.size)
            image.load()
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as err:
            message = (_("the file {file} is not an image we can read (JPEG, PNG, WebP, …)").format(file=source)
                       if isinstance(source, str | Path) else
                       _("the file is not an image we can read (JPEG, PNG, WebP, …)"))
            why = "" if isinstance(err, UnidentifiedImageError) else f" ({err})"
            raise ScanImageError(message + why) from err
    with contextlib.suppress(Exception):  # a damaged EXIF block must not stop the scan; the pixels are fine
        image = ImageOps.exif_transpose(image)
    try:
        return image.convert(mode)
    except ValueError as err:  # a colour space Pillow cannot turn into grey or RGB (a LAB TIFF, …)
        raise ScanImageError(_("the photo's colours ({mode}) cannot be read; save it as an ordinary JPEG or "
                               "PNG").format(mode=image.mode)) from err
