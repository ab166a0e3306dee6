"""Files tourpad ships: the DejaVu fonts (`fonts/`) and the icons (`icons/`)."""

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SANS_FILE, BOLD_FILE, CONDENSED_BOLD_FILE = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf"
#: The shipped faces, boldest first: the order the scan's letter templates and a seeded deck style draw them in.
SHIPPED_FONTS = (BOLD_FILE, CONDENSED_BOLD_FILE, SANS_FILE)
