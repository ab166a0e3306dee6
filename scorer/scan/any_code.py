"""Any QR code's text in a photo, for the screens that read a code rather than a row of cards (a shared
deck's link, a table's join link): in the web app the page's code reader (zxing-wasm, code-reader.js, the
same the keypad's scan uses: fetched at the first scan, then kept offline), on the host zxing-cpp's first
pass (`scorer.scan.codes.first_look`)."""

from __future__ import annotations

import asyncio

from scorer.locale import _
from scorer.runtime import IN_BROWSER


class CodePhotoError(ValueError):
    """The photo cannot be read (not an image, the reader did not load); the message says so."""


async def code_texts(data: bytes) -> list[str]:
    """The text of every QR code in the photo (file bytes), in the reader's order."""
    if IN_BROWSER:
        return await _in_page(data)
    from scorer.scan.codes import first_look
    from scorer.scan.image import ScanImageError, load_photo

    def read() -> list[str]:
        return [code.text for code in first_look(load_photo(data))]

    try:
        return await asyncio.to_thread(read)
    except ScanImageError as err:
        raise CodePhotoError(str(err)) from err


async def _in_page(data: bytes) -> list[str]:
    import js
    from pyodide.ffi import JsException, to_js

    from scorer.scan.browser import PhotoError, codes_of

    try:
        answer = await js.tourpadCodeReader.read(to_js(bytes(data)))
        codes, _size = codes_of(str(answer))
    except JsException as err:
        if "NotAnImage" in str(err):
            raise CodePhotoError(_("this file is not a picture we can read (JPEG, PNG, WebP, …)")) from err
        raise CodePhotoError(_("the code reader did not start ({error})").format(error=err)) from err
    except PhotoError as err:
        raise CodePhotoError(str(err)) from err
    return [code.text for code in codes]
