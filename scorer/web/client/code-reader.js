// tourpad's code reader in the published web app: every QR code in a photo, with its four corners, read by
// zxing-cpp built for WebAssembly (the npm package zxing-wasm, copied into the site by `tourpad publish`
// from the pinned install in webvendor/). Python (scorer/scan/browser.py) orders the codes into a row with
// the same logic as `tourpad scan` (scorer/scan/rows.py).
//
// Loaded the first time a player scans (python-worker.js imports this module then); the .wasm beside it is
// fetched from the site itself, never from the package's default CDN.
//
// It runs in the Python worker (OffscreenCanvas decodes the photo there) and in a page (the bench:
// benchmarks/scan_web.py). The host's fallbacks that need no native library are ported: the photo is read
// whole with each binarizer until a code is read; where not one code is read, at its
// most detailed patches (`busySpots`); then Python asks for close looks where the row's codes say a card
// lies (`readAround`: cropped, sharpened, enlarged, each binarizer), as `tourpad scan` does.

import {prepareZXingModule, readBarcodes} from "./zxing/es/reader/index.js";

const WASM = new URL("./zxing/zxing_reader.wasm", import.meta.url).href;
prepareZXingModule({overrides: {locateFile: (path, prefix) => (path.endsWith(".wasm") ? WASM : prefix + path)}});

const BASE = {formats: ["QRCode"], tryHarder: true, tryInvert: false, tryRotate: true, maxNumberOfSymbols: 32};
const LOOKS = [{binarizer: "LocalAverage"}, {binarizer: "GlobalHistogram"}, {binarizer: "FixedThreshold"}];
//: The last photo read, for the close looks Python asks for next.
let last = null;
//: Size (px) assumed for a code at a busy spot when no code has been read: small codes are the hard ones
//: (the whole photo's read finds the large ones), about 2.6 px per module (as scorer/scan/codes.py).
const GUESSED_CODE_PX = 56;
//: Busy spots: found on a map of local contrast at half size, at most this many, best first.
const BUSY_SPOTS = 24;
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
  last = board;
  const found = [];
  const first = width * height > HALF_SIZE_PX ? 0.5 : 1;
  const whole = cut(board, 0, 0, width, height, first);
  for (const look of LOOKS) {
    merge(found, await readBarcodes(whole, {...BASE, ...look}), first);
    // With one card read, the close looks Python asks for next find the others sooner than another pass.
    if (found.length) break;
  }
  if (!found.length) {
    // Not one code read whole: the photo's most detailed patches (codes are the densest texture on a table,
    // even too blurred or small to read whole), each looked at closely as a code of a guessed size.
    for (const [x, y] of busySpots(board, width, height)) {
      const more = JSON.parse(await readAround(x, y, GUESSED_CODE_PX, 0.6 * GUESSED_CODE_PX, 1)).codes;
      if (more.length) {
        found.push(...more);
        break;
      }
    }
  }
  return JSON.stringify({width, height, codes: found});
}

// Centres (photo px) of the most detailed code-sized patches, best first: a half-size map of local contrast
// (the largest grey difference in each 3 × 3), averaged over 21 × 21 map pixels; each spot found clears its
// surroundings; none below 0.35 of the best.
function busySpots(board, width, height) {
  const map = cut(board, 0, 0, width, height, 0.5);
  const grey = greyOf(map);
  const w = map.width, h = map.height;
  const contrast = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      let low = 255, high = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const v = grey[(y + dy) * w + x + dx];
          if (v < low) low = v;
          if (v > high) high = v;
        }
      }
      contrast[y * w + x] = high - low;
    }
  }
  const sums = new Float64Array((w + 1) * (h + 1));  // integral image
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += contrast[y * w + x];
      sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row;
    }
  }
  const r = 10;
  const density = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r), x1 = Math.min(w, x + r + 1), y0 = Math.max(0, y - r), y1 = Math.min(h, y + r + 1);
      density[y * w + x] = (sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0]
                            + sums[y0 * (w + 1) + x0]) / ((x1 - x0) * (y1 - y0));
    }
  }
  let best = 0;
  for (const v of density) best = Math.max(best, v);
  const spots = [];
  for (let attempt = 0; attempt < BUSY_SPOTS; attempt++) {
    let at = 0;
    for (let i = 1; i < density.length; i++) if (density[i] > density[at]) at = i;
    if (density[at] <= 0.35 * best) break;
    const x = at % w, y = Math.floor(at / w);
    spots.push([(x + 0.5) * width / w, (y + 0.5) * height / h]);
    for (let yy = Math.max(0, y - 24); yy < Math.min(h, y + 25); yy++) {
      density.fill(0, yy * w + Math.max(0, x - 24), yy * w + Math.min(w, x + 25));
    }
  }
  return spots;
}

// A code's look sharpened (an unsharp mask of `amount`, Gaussian of `sigma` px): undoes some of the camera's
// blur, so a code whose modules ran together gets its edges back. Grey in, grey out (Float32Array).
function sharpened(grey, width, height, sigma, amount) {
  const radius = Math.ceil(sigma * 3);
  const kernel = [];
  let total = 0;
  for (let i = -radius; i <= radius; i++) {
    kernel.push(Math.exp(-(i * i) / (2 * sigma * sigma)));
    total += kernel[kernel.length - 1];
  }
  const across = new Float32Array(grey.length);
  const blurred = new Float32Array(grey.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let i = -radius; i <= radius; i++) sum += kernel[i + radius] * grey[y * width + Math.min(width - 1, Math.max(0, x + i))];
      across[y * width + x] = sum / total;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let i = -radius; i <= radius; i++) sum += kernel[i + radius] * across[Math.min(height - 1, Math.max(0, y + i)) * width + x];
      blurred[y * width + x] = sum / total;
    }
  }
  const out = new Float32Array(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = grey[i] + amount * (grey[i] - blurred[i]);
  return out;
}

// A dim, grainy look: each grey averaged with its 3 × 3 neighbours (the grain breaks a binarizer's runs),
// then stretched so the darkest and lightest 1 % reach black and white (what contrast is left passes the
// binarizer's minimum).
function evened(grey, width, height) {
  const out = new Float32Array(grey.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0, count = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy;
          if (xx >= 0 && yy >= 0 && xx < width && yy < height) {
            sum += grey[yy * width + xx];
            count += 1;
          }
        }
      }
      out[y * width + x] = sum / count;
    }
  }
  const sorted = Float32Array.from(out).sort();
  const low = sorted[Math.floor(0.01 * (sorted.length - 1))], high = sorted[Math.floor(0.99 * (sorted.length - 1))];
  const scale = 255 / Math.max(1, high - low);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] - low) * scale;
  return out;
}

function greyOf(image) {
  const grey = new Float32Array(image.width * image.height);
  for (let i = 0; i < grey.length; i++) {
    grey[i] = 0.299 * image.data[4 * i] + 0.587 * image.data[4 * i + 1] + 0.114 * image.data[4 * i + 2];
  }
  return grey;
}

// Grey values as an image zxing reads, enlarged by `factor` (the canvas smooths as it scales).
function enlarged(grey, width, height, factor) {
  const small = canvas(width, height);
  const pixels = new ImageData(width, height);
  for (let i = 0; i < grey.length; i++) {
    const v = Math.max(0, Math.min(255, grey[i]));
    pixels.data[4 * i] = pixels.data[4 * i + 1] = pixels.data[4 * i + 2] = v;
    pixels.data[4 * i + 3] = 255;
  }
  small.getContext("2d").putImageData(pixels, 0, 0);
  return cut(small, 0, 0, width, height, factor);
}

// A close look at one place of the last photo read, where a card's code should be (x, y its centre, `size`
// the code's side in px, `doubt` how far off that may be): cropped, enlarged to ~8 px per module (then ~6),
// sharpened, each binarizer (`enlargements`: 1 tries only the first size, on a guess). Returns the same JSON
// as readCodes, the codes in the photo's pixels.
export async function readAround(x, y, size, doubt, enlargements = 2) {
  const none = JSON.stringify({width: 1, height: 1, codes: []});
  if (!last) return none;
  const half = 1.4 * size + doubt;
  const x0 = Math.max(0, Math.floor(x - half)), y0 = Math.max(0, Math.floor(y - half));
  const x1 = Math.min(last.width, Math.ceil(x + half)), y1 = Math.min(last.height, Math.ceil(y + half));
  if (x1 - x0 < size / 2 || y1 - y0 < size / 2) return none;
  const crop = cut(last, x0, y0, x1 - x0, y1 - y0, 1);
  const grey = greyOf(crop);
  const found = [];
  const looks = [[1.5, 3, "LocalAverage"], [1.5, 6, "FixedThreshold"], [1.5, 6, "LocalAverage"],
                 [0, 0, "LocalAverage"], [1.5, 3, "GlobalHistogram"], ["evened", 0, "LocalAverage"]];
  for (const pixelsPerCode of [200, 150].slice(0, enlargements)) {
    const factor = Math.min(4, Math.max(1, pixelsPerCode / size));
    for (const [sigma, amount, binarizer] of looks) {
      const look = sigma === "evened" ? evened(grey, crop.width, crop.height)
        : sigma ? sharpened(grey, crop.width, crop.height, sigma, amount) : grey;
      const image = enlarged(look, crop.width, crop.height, factor);
      if (merge(found, await readBarcodes(image, {...BASE, binarizer}), factor, x0, y0)) {
        return JSON.stringify({width: last.width, height: last.height, codes: found});
      }
    }
  }
  return JSON.stringify({width: last.width, height: last.height, codes: found});
}
