// tourpad's code reader in the published web app: every QR code in a photo, with its four corners, read by
// zxing-cpp built for WebAssembly (the npm package zxing-wasm, copied into the site by `tourpad publish`
// from the pinned install in webvendor/). Python (scorer/scan/browser.py) orders the codes into a row with
// the same logic as `tourpad scan` (scorer/scan/rows.py).
//
// Loaded the first time a player scans (python-worker.js imports this module then); the .wasm beside it is
// fetched from the site itself, never from the package's default CDN, and kept by the service worker.
//
// It runs in the Python worker (OffscreenCanvas decodes the photo there) and in a page (the bench:
// benchmarks/scan_web.py). A photo is read whole with the default binarizer first; while fewer codes than a
// row holds are found, with the other binarizers, then in overlapping tiles enlarged (small, far codes),
// each new code kept where no code was found before: the host's fallbacks that need no native library.

import {prepareZXingModule, readBarcodes} from "./zxing/es/reader/index.js";

const WASM = new URL("./zxing/zxing_reader.wasm", import.meta.url).href;
prepareZXingModule({overrides: {locateFile: (path, prefix) => (path.endsWith(".wasm") ? WASM : prefix + path)}});

//: A row of cards: reading stops once this many codes are found.
const ROW_CODES = 7;
const BASE = {formats: ["QRCode"], tryHarder: true, tryInvert: false, tryRotate: true, maxNumberOfSymbols: 32};
const LOOKS = [{binarizer: "LocalAverage"}, {binarizer: "GlobalHistogram"}, {binarizer: "FixedThreshold"}];
//: Tiles for far, small codes: the photo cut into this many columns and rows (overlapping by half a tile),
//: each enlarged to about TILE_PX on its long side.
const TILES = [[3, 2], [4, 2]];
const TILE_PX = 1600;
//: A photo larger than this many pixels is read at half size first (a phone's 12 Mpx; codes stay large).
const HALF_SIZE_PX = 16_000_000;

function corners(position, scale, dx, dy) {
  return ["topLeft", "topRight", "bottomRight", "bottomLeft"]
    .map((name) => [position[name].x / scale + dx, position[name].y / scale + dy]);
}

function centre(points) {
  return [points.reduce((s, p) => s + p[0], 0) / 4, points.reduce((s, p) => s + p[1], 0) / 4];
}

function side(points) {
  let total = 0;
  for (let i = 0; i < 4; i++) {
    const [a, b] = [points[i], points[(i + 1) % 4]];
    total += Math.hypot(a[0] - b[0], a[1] - b[1]);
  }
  return total / 4;
}

// Adds the codes not found yet (one place, one code, whichever look read it); how many were new.
function merge(found, results, scale = 1, dx = 0, dy = 0) {
  let added = 0;
  for (const result of results) {
    if (!result.isValid) continue;
    const points = corners(result.position, scale, dx, dy);
    const [cx, cy] = centre(points);
    const size = side(points);
    const seen = found.some((code) => {
      const [ox, oy] = centre(code.corners);
      return Math.hypot(cx - ox, cy - oy) <= 0.5 * Math.max(size, side(code.corners));
    });
    if (!seen) {
      found.push({text: result.text, corners: points});
      added += 1;
    }
  }
  return added;
}

function canvas(width, height) {
  if (typeof OffscreenCanvas !== "undefined") return new OffscreenCanvas(width, height);
  const element = document.createElement("canvas");
  element.width = width;
  element.height = height;
  return element;
}

async function pixels(bytes) {
  const bitmap = await createImageBitmap(new Blob([bytes]), {imageOrientation: "from-image"});
  const {width, height} = bitmap;
  const board = canvas(width, height);
  const context = board.getContext("2d", {willReadFrequently: true});
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  return {board, width, height};
}

function cut(board, x, y, w, h, scale) {
  const out = canvas(Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)));
  const context = out.getContext("2d", {willReadFrequently: true});
  context.imageSmoothingQuality = "high";
  context.drawImage(board, x, y, w, h, 0, 0, out.width, out.height);
  return context.getImageData(0, 0, out.width, out.height);
}

// Every code in the photo (file bytes: JPEG, PNG, WebP, …) → JSON text {width, height, codes: [{text,
// corners: [[x, y] × 4]}]}, corners top-left, top-right, bottom-right, bottom-left in the upright photo's
// pixels. Throws {name: "NotAnImage"} for bytes no browser decodes as a picture.
export async function readCodes(bytes) {
  let picture;
  try {
    picture = await pixels(bytes);
  } catch (error) {
    const refused = new Error(String(error));
    refused.name = "NotAnImage";
    throw refused;
  }
  const {board, width, height} = picture;
  const found = [];
  const done = () => found.length >= ROW_CODES;
  const first = width * height > HALF_SIZE_PX ? 0.5 : 1;
  const whole = cut(board, 0, 0, width, height, first);
  for (const look of LOOKS) {
    merge(found, await readBarcodes(whole, {...BASE, ...look}), first);
    if (done()) break;
  }
  for (const [columns, rows] of TILES) {
    if (done()) break;
    const tw = width / columns, th = height / rows;
    const scale = Math.min(3, TILE_PX / Math.max(tw * 1.5, th * 1.5));
    for (let row = 0; row < rows * 2 - 1 && !done(); row++) {
      for (let column = 0; column < columns * 2 - 1 && !done(); column++) {
        const x = column * tw / 2, y = row * th / 2;
        const tile = cut(board, x, y, Math.min(tw * 1.5, width - x), Math.min(th * 1.5, height - y), scale);
        for (const look of LOOKS.slice(0, 2)) {
          if (merge(found, await readBarcodes(tile, {...BASE, ...look}), scale, x, y) || done()) break;
        }
      }
    }
  }
  return JSON.stringify({width, height, codes: found});
}
