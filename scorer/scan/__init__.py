"""Scanning a player's row of cards from one photo, one module per job:

- `rows`: the codes read, with their corners, → the row's letters in draft order and what is wrong with it.
  Pure Python: the web app's own reader (`browser`) hands it the codes the page read, as `tourpad scan` does.
- `image`: opening a photo; `codes`: reading every QR code in it (zxing-cpp, numpy, Pillow);
  `photo`: one photo → a row (`tourpad scan`, the hosted app).
- `find`: finding the publisher's printed cards in a photo; `faces`: recognising them and teaching a deck;
  `taught`: the taught deck's storage (OpenCV, numpy).

This file imports nothing: the browser's Python imports `scorer.scan.rows` without numpy or OpenCV.
"""
