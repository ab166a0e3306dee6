"""The scan's row logic is shared with the web app, whose Python has no numpy, Pillow, OpenCV or zxing-cpp:
importing it, and reading a row with it, must load none of them."""

from __future__ import annotations

import json
import subprocess
import sys

NATIVE = ("numpy", "cv2", "zxingcpp", "PIL")

PROGRAM = """
import json, sys
from scorer.scan.rows import FoundCode, row_of_codes
from scorer.scan.browser import CloseLooks
from scorer.scan.known import known_codes_json
from scorer.packs import resolve_edition

edition = resolve_edition("australia")
codes = [FoundCode.from_corners(f"tp:australia:{letter}", [(x, 0), (x + 50, 0), (x + 50, 50), (x, 50)])
         for x, letter in zip(range(0, 700, 100), "ABCDEFG")]
result = row_of_codes(list(reversed(codes)), edition, (800, 100))
known = json.loads(known_codes_json(edition))["codes"]  # what the page's reader tells blurred codes among
native = NATIVE_NAMES
print(json.dumps({"letters": result.letters, "known": [code["text"] for code in known],
                  "loaded": sorted(name for name in native if name in sys.modules)}))
""".replace("NATIVE_NAMES", repr(NATIVE))


def test_the_row_logic_loads_no_native_library():
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["letters"] == "ABCDEFG"  # the logic did run: ordered along the row from the codes' corners
    assert {"tp:australia:A", "tp:europe:A"} <= set(report["known"])  # every bundled edition's cards, drawn
    assert report["loaded"] == []
