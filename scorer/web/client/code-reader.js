// tourpad's code reader in the published web app: every QR code in a photo, with its four corners, read by
// zxing-cpp built for WebAssembly (the npm package zxing-wasm, copied into the site by `tourpad publish`
// from the pinned install in webvendor/). Python (scorer/scan/browser.py) orders the codes into a row with
// the same logic as `tourpad scan` (scorer/scan/rows.py).
//
// Loaded the first time a player scans (python-worker.js imports this module then); the .wasm beside it is
// fetched from the site itself, never from the package's default CDN.
//
// It runs in the Python worker (OffscreenCanvas decodes the photo there) and in a page (the bench:
// benchmarks/scan_web.py). The host's fallbacks (scorer/scan/codes.py) are ported, none needing a native
// library: the photo is read whole with each binarizer until a code is read; where not one code is read, at
// its most detailed patches (`busySpots`); then Python asks for close looks where the row's codes say a card
// lies (`readAround`: cropped, sharpened or deblurred, enlarged, each binarizer). A code too blurred for any
// binarizer is told by its look among the game's known card codes (Python hands them over with the photo):
// one located but not decoded by its module greys (`matchKnownCode`), one not even located by the modules
// every card code shares (`locateKnownCode`), as `tourpad scan` does.

import {prepareZXingModule, readBarcodes} from "./zxing/es/reader/index.js";

const WASM = new URL("./zxing/zxing_reader.wasm", import.meta.url).href;
prepareZXingModule({overrides: {locateFile: (path, prefix) => (path.endsWith(".wasm") ? WASM : prefix + path)}});

const BASE = {formats: ["QRCode"], tryHarder: true, tryInvert: false, tryRotate: true, maxNumberOfSymbols: 32};
const LOOKS = [{binarizer: "LocalAverage"}, {binarizer: "GlobalHistogram"}, {binarizer: "FixedThreshold"}];
//: The last photo read, for the close looks Python asks for next, and the card codes its game may show
//: (`familiesOf`: empty when Python sent none; then no code is told by its look).
let last = null;
let families = [];
let knownText = null;
//: zxing reads of the last photo so far (a search by the shared modules counts as one): the fallbacks stop at
//: READ_BUDGET, a count, not a clock, so a slow phone reads the same codes as a fast one, only later. The
//: hardest bench photos the page reads whole need 50–210; a photo without any code (the publisher's cards)
//: stops here rather than after every busy spot's every look.
let reads = 0;
const READ_BUDGET = 300;
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
  return {board, context, width, height};
}

function cut(board, x, y, w, h, scale) {
  const out = canvas(Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale)));
  const context = out.getContext("2d", {willReadFrequently: true});
  context.imageSmoothingQuality = "high";
  context.drawImage(board, x, y, w, h, 0, 0, out.width, out.height);
  return context.getImageData(0, 0, out.width, out.height);
}

// Every code in the photo (file bytes: JPEG, PNG, WebP, …) → JSON text {width, height, codes: [{text,
// corners: [[x, y] × 4]}], reads}, corners top-left, top-right, bottom-right, bottom-left in the upright
// photo's pixels; `reads`: the zxing reads spent on the photo so far (of READ_BUDGET). `known`: the card codes the game may show (JSON from scorer/scan/known.py), for telling a blurred
// code by its look; without it only what a binarizer decodes is read. Throws {name: "NotAnImage"} for bytes
// no browser decodes as a picture.
export async function readCodes(bytes, known = null) {
  let picture;
  try {
    picture = await pixels(bytes);
  } catch (error) {
    const refused = new Error(String(error));
    refused.name = "NotAnImage";
    throw refused;
  }
  const {board, context, width, height} = picture;
  last = board;
  reads = 0;
  if (known !== knownText) {
    families = familiesOf(known);
    knownText = known;
  }
  const found = [];
  const first = width * height > HALF_SIZE_PX ? 0.5 : 1;
  // At full size the photo's own pixels: a copy drawn anew would cost as much as its decoding.
  const whole = first === 1 ? context.getImageData(0, 0, width, height) : cut(board, 0, 0, width, height, first);
  for (const look of LOOKS) {
    merge(found, await read(whole, look.binarizer), first);
    // With one card read, the close looks Python asks for next find the others sooner than another pass.
    if (found.length) break;
  }
  if (!found.length) {
    // Not one code read whole: the photo's most detailed patches (codes are the densest texture on a table,
    // even too blurred or small to read whole), each looked at closely as a code of a guessed size, then
    // searched for by the modules every card code shares, turned as the patch's grid runs.
    for (const [x, y] of busySpots(board, width, height)) {
      if (reads >= READ_BUDGET) break;
      let more = await lookClosely(x, y, GUESSED_CODE_PX, 0.6 * GUESSED_CODE_PX, 0, 1);
      if (!more.length && families.length) more = tellAnywhere(x, y, GUESSED_CODE_PX);
      if (more.length) {
        found.push(...more);
        break;
      }
    }
  }
  return JSON.stringify({width, height, codes: found, reads});
}

async function read(image, binarizer, returnErrors = false) {
  reads += 1;
  return readBarcodes(image, {...BASE, binarizer, returnErrors});
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
// the code's side in px, `doubt` how far off that may be; `edges`: JSON [rx, ry, dx, dy], the code's top and
// left edges as its read neighbours say, or null). As `tourpad scan`: cropped and enlarged to ~8 px per
// module, each look of `readCrop`; then the code found by its shared modules (`tellAround`, with `edges`);
// then enlarged to ~6 and ~7 px per module. Returns the same JSON as readCodes, the codes in the photo's
// pixels; nothing once the photo's read budget is spent.
export async function readAround(x, y, size, doubt, edges = null) {
  if (!last) return JSON.stringify({width: 1, height: 1, codes: []});
  const shape = typeof edges === "string" ? JSON.parse(edges) : edges;
  let found = await lookClosely(x, y, size, doubt, 0, 1);
  if (!found.length && shape && families.length && reads < READ_BUDGET) found = tellAround(x, y, size, doubt, [shape]);
  if (!found.length) found = await lookClosely(x, y, size, doubt, 1, 3);
  return JSON.stringify({width: last.width, height: last.height, codes: found, reads});
}

//: Enlargements of a close look: [largest factor, px the code is enlarged to]. At 2–3 px per module, whether
//: the locator finds a code's finder patterns hangs on how the enlargement lands on the blurred edges, so
//: another size often finds it.
const ENLARGEMENTS = [[4, 200], [3, 150], [3.5, 175]];

// The codes read in the crop around (x, y), enlarged as ENLARGEMENTS[skip..sizes-1] say, the first that
// reads anything.
async function lookClosely(x, y, size, doubt, skip, sizes) {
  const half = 1.4 * size + doubt;
  const x0 = Math.max(0, Math.trunc(x - half)), y0 = Math.max(0, Math.trunc(y - half));
  const x1 = Math.min(last.width, Math.trunc(x + half)), y1 = Math.min(last.height, Math.trunc(y + half));
  if (x1 - x0 < size / 2 || y1 - y0 < size / 2) return [];
  const crop = cut(last, x0, y0, x1 - x0, y1 - y0, 1);
  const grey = {data: greyOf(crop), width: crop.width, height: crop.height};
  const factors = new Set(ENLARGEMENTS.slice(skip, sizes).map(([limit, px]) => Math.min(limit, Math.max(1, px / size))));
  for (const factor of factors) {
    const found = await readCrop(grey, factor, x0, y0);
    if (found.length) return found;
  }
  return [];
}

// One crop's looks, each made only if the ones before it read nothing: sharpened (undoes some of the
// camera's blur), strongly sharpened with a fixed threshold (the most blurred codes), as is, smoothed and
// stretched (a dim, grainy photo), and the blur undone by a Wiener filter (`deblurred`, codes at 2–3 px per
// module out of focus). A code located whose bits fail the error correction is told by its look among the
// known card codes (`matchKnownCode`).
async function readCrop(grey, factor, x0, y0) {
  const {data, width, height} = grey;
  const once = (make) => {
    let image = null;
    return () => (image ??= enlarged(make(), width, height, factor));
  };
  const sharp = once(() => sharpened(data, width, height, 1.5, 3));
  const sharper = once(() => sharpened(data, width, height, 1.5, 6));
  const deblurredSome = once(() => deblurred(data, width, height, 1.3, 0.03));
  const deblurredMore = once(() => deblurred(data, width, height, 1.6, 0.01));
  const looks = [
    [sharp, "LocalAverage"], [sharper, "FixedThreshold"], [sharper, "LocalAverage"],
    [once(() => data), "LocalAverage"], [sharp, "GlobalHistogram"],
    [once(() => evened(data, width, height)), "LocalAverage"],
    [deblurredSome, "LocalAverage"], [deblurredSome, "FixedThreshold"],
    [once(() => deblurred(data, width, height, 1.3, 0.01)), "LocalAverage"],
    [deblurredMore, "FixedThreshold"], [deblurredMore, "LocalAverage"],
    [once(() => deblurred(data, width, height, 1.6, 0.03)), "LocalAverage"]];
  for (const [look, binarizer] of looks) {
    if (reads >= READ_BUDGET) return [];
    const image = look();
    const results = await read(image, binarizer, families.length > 0);
    const found = [];
    if (merge(found, results, factor, x0, y0)) return found;
    for (const result of results) {
      if (result.isValid) continue;
      const points = corners(result.position, 1, 0, 0);
      const text = matchKnownCode({data: greyOf(image), width: image.width, height: image.height}, points);
      if (text) return [{text, corners: points.map(([px, py]) => [px / factor + x0, py / factor + y0])}];
    }
  }
  return [];
}

// --- Telling a code by its look among the known card codes (scorer/scan/codes.py) -----------------------

//: A located code is taken for a known card only if its modules agree with that card's code this well
//: (correlation of the sampled greys with the code's dark/light pattern, -1..1), and this much better than
//: with any other card's code (one edition's codes share most of their modules).
const MATCH_MIN = 0.5;
const MATCH_MARGIN = 0.12;
//: A code is taken as located by its shared modules only if they fit this well.
const LOCATE_MIN = 0.5;

function unitCentred(values) {
  const out = Float32Array.from(values);
  const mean = out.reduce((sum, v) => sum + v, 0) / out.length;
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] -= mean;
    norm += out[i] * out[i];
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= norm;
  return out;
}

// The known codes by size (modules across), ready to compare: the modules that differ between them
// (`telling`) and, per code, those modules' pattern centred and scaled to unit length (+ for dark); the
// centres of the modules they all share, quiet zone included (`points`, in modules from the code's centre),
// and those modules' look centred and scaled the same way (`fixed`, + for light).
function familiesOf(text) {
  if (!text) return [];
  const {border, codes} = JSON.parse(text);
  const bySize = new Map();
  for (const {text: payload, rows} of codes) {
    const modules = rows.length;
    const pattern = new Int8Array(modules * modules);
    rows.forEach((row, r) => {
      for (let c = 0; c < modules; c++) pattern[r * modules + c] = row[c] === "1" ? 1 : -1;
    });
    if (!bySize.has(modules)) bySize.set(modules, []);
    bySize.get(modules).push({payload, pattern});
  }
  const out = [];
  for (const [modules, group] of bySize) {
    const isTelling = new Uint8Array(modules * modules);
    const telling = [];
    for (let i = 0; i < isTelling.length; i++) {
      if (group.some((code) => code.pattern[i] !== group[0].pattern[i])) {
        isTelling[i] = 1;
        telling.push(i);
      }
    }
    if (group.length < 2 || telling.length < 8) continue;
    const points = [], looks = [];
    for (let row = -border; row < modules + border; row++) {
      for (let column = -border; column < modules + border; column++) {
        const inside = row >= 0 && row < modules && column >= 0 && column < modules;
        if (inside && isTelling[row * modules + column]) continue;
        points.push(column + 0.5 - modules / 2, row + 0.5 - modules / 2);
        looks.push(inside ? -group[0].pattern[row * modules + column] : 1);
      }
    }
    out.push({modules, payloads: group.map((code) => code.payload), telling: Int32Array.from(telling),
              patterns: group.map((code) => unitCentred(telling.map((i) => code.pattern[i]))),
              points: Float32Array.from(points), fixed: unitCentred(looks), sample: new Float32Array(looks.length)});
  }
  return out;
}

// x = A h with h[8] = 1, for 8 equations (Gaussian elimination, partial pivoting); null when singular.
function solve(rows, rhs) {
  const n = rhs.length;
  const m = rows.map((row, i) => [...row, rhs[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    if (Math.abs(m[pivot][col]) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = col + 1; r < n; r++) {
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r][n];
    for (let c = r + 1; c < n; c++) sum -= m[r][c] * x[c];
    x[r] = sum / m[r][r];
  }
  return x;
}

function bilinear(grey, x, y) {
  const {data, width} = grey;
  const x0 = Math.floor(x), y0 = Math.floor(y), fx = x - x0, fy = y - y0, at = y0 * width + x0;
  return data[at] * (1 - fx) * (1 - fy) + data[at + 1] * fx * (1 - fy) + data[at + width] * (1 - fx) * fy
    + data[at + width + 1] * fx * fy;
}

// The grey at every module centre of a code whose outer corners are `points` (a projective map from module
// space), row by row; null where a module falls outside the image.
function sampleModules(grey, points, modules) {
  const rows = [], rhs = [];
  [[0, 0], [modules, 0], [modules, modules], [0, modules]].forEach(([u, v], i) => {
    const [x, y] = points[i];
    rows.push([u, v, 1, 0, 0, 0, -x * u, -x * v], [0, 0, 0, u, v, 1, -y * u, -y * v]);
    rhs.push(x, y);
  });
  const h = solve(rows, rhs);
  if (!h) return null;
  const out = new Float32Array(modules * modules);
  for (let r = 0; r < modules; r++) {
    for (let c = 0; c < modules; c++) {
      const u = c + 0.5, v = r + 0.5;
      const w = h[6] * u + h[7] * v + 1;
      const x = (h[0] * u + h[1] * v + h[2]) / w, y = (h[3] * u + h[4] * v + h[5]) / w;
      if (!(x >= 0 && y >= 0 && x <= grey.width - 2 && y <= grey.height - 2)) return null;
      out[r * modules + c] = bilinear(grey, x, y);
    }
  }
  return out;
}

// The known card code located at `points` (corners, top-left first) whose bits were too blurred to decode,
// told by its module greys where the codes differ; null unless one fits clearly best.
function matchKnownCode(grey, points) {
  const scores = [];
  for (const family of families) {
    const sample = sampleModules(grey, points, family.modules);
    if (!sample) continue;
    const picked = Array.from(family.telling, (i) => sample[i]);
    const mean = picked.reduce((sum, v) => sum + v, 0) / picked.length;
    let norm = 0;
    for (let i = 0; i < picked.length; i++) {
      picked[i] -= mean;
      norm += picked[i] * picked[i];
    }
    norm = Math.sqrt(norm);
    if (norm < 1e-6) continue;
    family.patterns.forEach((pattern, k) => {
      let dot = 0;
      for (let i = 0; i < picked.length; i++) dot += pattern[i] * picked[i];
      scores.push([-dot / norm, family.payloads[k]]);  // dark modules are low grey
    });
  }
  if (scores.length < 2) return null;
  scores.sort((a, b) => b[0] - a[0]);
  const [[best, text], [second]] = scores;
  return best >= MATCH_MIN && best - second >= MATCH_MARGIN ? text : null;
}

// How well the shared modules fit a code framed as `frame` (centre x, y, then one module's step along the
// code's right and down); -1 where the code would reach out of the image.
function fixedFit(grey, family, frame) {
  const {points, fixed, sample} = family;
  const [cx, cy, rx, ry, dx, dy] = frame;
  const right = grey.width - 1, bottom = grey.height - 1;
  let sum = 0;
  for (let i = 0; i < sample.length; i++) {
    const px = points[2 * i], py = points[2 * i + 1];
    const x = cx + px * rx + py * dx, y = cy + px * ry + py * dy;
    if (!(x >= 0 && y >= 0 && x < right && y < bottom)) return -1;
    sample[i] = bilinear(grey, x, y);
    sum += sample[i];
  }
  const mean = sum / sample.length;
  let norm = 0, dot = 0;
  for (let i = 0; i < sample.length; i++) {
    const v = sample[i] - mean;
    norm += v * v;
    dot += v * fixed[i];
  }
  return norm < 1e-12 ? 0 : dot / Math.sqrt(norm);
}

function turned([x, y], degrees) {
  const c = Math.cos(degrees * Math.PI / 180), s = Math.sin(degrees * Math.PI / 180);
  return [c * x - s * y, s * x + c * y];
}

// Indices of the `count` best fits, best first.
function bestOf(fits, count) {
  return Array.from(fits.keys()).sort((a, b) => fits[b] - fits[a]).slice(0, count);
}

// The corners of a card code near `centre` in `grey` whose shape is about one of `starts` ([rx, ry, dx, dy]:
// its top and left edges), found by the modules every card code shares, not by a binarizer; null unless they
// fit at least LOCATE_MIN. A grid of places within `reach`, a module apart, in each shape; the likeliest
// turned ±3° and scaled ±5 %; the best few refined step by step in position, turn, size and skew.
function locateKnownCode(grey, centre, starts, reach) {
  let best = LOCATE_MIN, bestCorners = null;
  for (const family of families) {
    const shapes = starts.map((start) => start.map((v) => v / family.modules));
    const [a, b, c, d] = shapes[0];
    const module = Math.sqrt(Math.abs(a * d - b * c));
    if (module < 0.5) continue;
    const steps = [];
    for (let i = 0; -reach + i * module < reach + 1e-6; i++) steps.push(-reach + i * module);
    let frames = [];
    for (const shape of shapes) {
      for (const dy of steps) for (const dx of steps) frames.push([centre[0] + dx, centre[1] + dy, ...shape]);
    }
    let fits = frames.map((frame) => fixedFit(grey, family, frame));
    const likeliest = bestOf(fits, 8).map((i) => frames[i]);
    frames = [];
    for (const turn of [-3, 0, 3]) {
      for (const scale of [0.95, 1, 1.05]) {
        for (const [x, y, rx, ry, dx, dy] of likeliest) {
          const r = turned([rx, ry], turn), down = turned([dx, dy], turn);
          frames.push([x, y, r[0] * scale, r[1] * scale, down[0] * scale, down[1] * scale]);
        }
      }
    }
    fits = frames.map((frame) => fixedFit(grey, family, frame));
    for (const start of bestOf(fits, 4)) {
      let frame = frames[start], fit = fits[start];
      let step = [0.5, 0.5, 0.04, 0.04, 0.04, 0.04].map((v) => v * module);
      for (let halving = 0; halving < 5; halving++) {
        for (let move = 0; move < 4; move++) {
          let pick = null, pickFit = -Infinity;
          for (const sign of [1, -1]) {
            for (let k = 0; k < 6; k++) {
              const trial = frame.slice();
              trial[k] += sign * step[k];
              const trialFit = fixedFit(grey, family, trial);
              if (trialFit > pickFit) [pick, pickFit] = [trial, trialFit];
            }
          }
          if (pickFit <= fit + 1e-4) break;
          [frame, fit] = [pick, pickFit];
        }
        step = step.map((v) => v / 2);
      }
      if (fit > best) {
        const [x, y, rx, ry, dx, dy] = frame;
        const hr = [rx * family.modules / 2, ry * family.modules / 2];
        const hd = [dx * family.modules / 2, dy * family.modules / 2];
        best = fit;
        bestCorners = [[x - hr[0] - hd[0], y - hr[1] - hd[1]], [x + hr[0] - hd[0], y + hr[1] - hd[1]],
                       [x + hr[0] + hd[0], y + hr[1] + hd[1]], [x - hr[0] + hd[0], y - hr[1] + hd[1]]];
      }
    }
  }
  return bestCorners;
}

function greyPatch(x0, y0, x1, y1) {
  const image = cut(last, x0, y0, x1 - x0, y1 - y0, 1);
  return {data: greyOf(image), width: image.width, height: image.height};
}

// The card code near (x, y), shaped about as one of `starts` says, when no binarizer could even locate it:
// found by its shared modules, then told by its own with the blur undone (each module's grey then owes
// less to its neighbours'). [] or [{text, corners}] in the photo's pixels.
function tellAround(x, y, size, doubt, starts) {
  const reach = 0.3 * size + doubt;
  let widest = 0;
  for (const [rx, ry, dx, dy] of starts) widest = Math.max(widest, Math.abs(rx) + Math.abs(dx), Math.abs(ry) + Math.abs(dy));
  const half = reach + 1.1 * widest;
  const x0 = Math.max(0, Math.trunc(x - half)), y0 = Math.max(0, Math.trunc(y - half));
  const x1 = Math.min(last.width, Math.max(0, Math.trunc(x + half) + 2));
  const y1 = Math.min(last.height, Math.max(0, Math.trunc(y + half) + 2));
  if (x1 - x0 < 4 || y1 - y0 < 4) return [];
  reads += 1;  // a search costs about one read
  const found = locateKnownCode(greyPatch(x0, y0, x1, y1), [x - x0, y - y0], starts, reach);
  if (!found) return [];
  const points = found.map(([px, py]) => [px + x0, py + y0]);
  const bx0 = Math.max(0, Math.trunc(Math.min(...points.map((p) => p[0]))) - 16);
  const by0 = Math.max(0, Math.trunc(Math.min(...points.map((p) => p[1]))) - 16);
  const bx1 = Math.min(last.width, Math.trunc(Math.max(...points.map((p) => p[0]))) + 16);
  const by1 = Math.min(last.height, Math.trunc(Math.max(...points.map((p) => p[1]))) + 16);
  const patch = greyPatch(bx0, by0, bx1, by1);
  const sharp = {data: deblurred(patch.data, patch.width, patch.height, 1.3, 0.03), width: patch.width,
                 height: patch.height};
  const text = matchKnownCode(sharp, points.map(([px, py]) => [px - bx0, py - by0]));
  return text ? [{text, corners: points}] : [];
}

// The angle (radians, modulo a quarter turn) of the square grid the patch around (x, y) is drawn on: a
// code's module edges run along its two axes, so the gradients' directions taken four times over (which
// folds the four edge directions into one) average to it.
function gridAngle(x, y, half) {
  const x0 = Math.max(0, Math.trunc(x - half)), y0 = Math.max(0, Math.trunc(y - half));
  const x1 = Math.min(last.width, Math.trunc(x + half)), y1 = Math.min(last.height, Math.trunc(y + half));
  if (x1 - x0 < 3 || y1 - y0 < 3) return 0;
  const {data, width, height} = greyPatch(x0, y0, x1, y1);
  let re = 0, im = 0;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const at = r * width + c;
      const gx = c === 0 ? data[at + 1] - data[at] : c === width - 1 ? data[at] - data[at - 1]
        : (data[at + 1] - data[at - 1]) / 2;
      const gy = r === 0 ? data[at + width] - data[at] : r === height - 1 ? data[at] - data[at - width]
        : (data[at + width] - data[at - width]) / 2;
      const sqRe = gx * gx - gy * gy, sqIm = 2 * gx * gy;
      const weight = Math.max(gx * gx + gy * gy, 1e-3);
      re += (sqRe * sqRe - sqIm * sqIm) / weight;
      im += 2 * sqRe * sqIm / weight;
    }
  }
  return Math.atan2(im, re) / 4;
}

// A card code near a busy spot when not one code of the photo was read, so no neighbour says its shape:
// turned as the patch's grid runs, any of the four ways up, square, `size` across.
function tellAnywhere(x, y, size) {
  const angle = gridAngle(x, y, size);
  const starts = [0, 1, 2, 3].map((quarter) => {
    const r = [size * Math.cos(angle + quarter * Math.PI / 2), size * Math.sin(angle + quarter * Math.PI / 2)];
    return [r[0], r[1], -r[1], r[0]];
  });
  return tellAround(x, y, size, 0.3 * size, starts);
}

// --- Undoing a camera's blur -------------------------------------------------------------------------------

// In-place FFT of n complex values (n a power of two); `inverse` without the 1/n.
function fft(re, im, inverse) {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (inverse ? 2 : -2) * Math.PI / len;
    const wr = Math.cos(angle), wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1, ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k, b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        [cr, ci] = [cr * wr - ci * wi, cr * wi + ci * wr];
      }
    }
  }
}

// FFT of every row, then of every column, of an n × m complex image (row-major).
function fft2(re, im, width, height, inverse) {
  const rowRe = new Float64Array(width), rowIm = new Float64Array(width);
  for (let r = 0; r < height; r++) {
    rowRe.set(re.subarray(r * width, (r + 1) * width));
    rowIm.set(im.subarray(r * width, (r + 1) * width));
    fft(rowRe, rowIm, inverse);
    re.set(rowRe, r * width);
    im.set(rowIm, r * width);
  }
  const colRe = new Float64Array(height), colIm = new Float64Array(height);
  for (let c = 0; c < width; c++) {
    for (let r = 0; r < height; r++) {
      colRe[r] = re[r * width + c];
      colIm[r] = im[r * width + c];
    }
    fft(colRe, colIm, inverse);
    for (let r = 0; r < height; r++) {
      re[r * width + c] = colRe[r];
      im[r * width + c] = colIm[r];
    }
  }
}

const powerOfTwo = (n) => 2 ** Math.ceil(Math.log2(Math.max(2, n)));
const frequency = (k, n) => (k < n / 2 ? k : k - n) / n;

// A Wiener filter for a Gaussian blur of `sigma` px (a phone slightly out of focus): the frequencies the blur
// damped are raised again, as far as `noise` (the grain's share) allows, then the greys stretched so the
// darkest and lightest 0.5 % reach black and white. For a small crop (padded to powers of two).
function deblurred(grey, width, height, sigma, noise) {
  const w = powerOfTwo(width), h = powerOfTwo(height);
  const re = new Float64Array(w * h), im = new Float64Array(w * h);
  const mean = grey.reduce((sum, v) => sum + v, 0) / grey.length;
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) re[r * w + c] = grey[r * width + c] - mean;
  fft2(re, im, w, h, false);
  for (let r = 0; r < h; r++) {
    const fy = frequency(r, h);
    for (let c = 0; c < w; c++) {
      const fx = frequency(c, w);
      const blur = Math.exp(-2 * Math.PI * Math.PI * sigma * sigma * (fx * fx + fy * fy));
      const gain = blur / (blur * blur + noise);
      re[r * w + c] *= gain;
      im[r * w + c] *= gain;
    }
  }
  fft2(re, im, w, h, true);
  const out = new Float32Array(grey.length);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) out[r * width + c] = re[r * w + c] / (w * h) + mean;
  const sorted = Float32Array.from(out).sort();
  const low = sorted[Math.floor(0.005 * (sorted.length - 1))], high = sorted[Math.floor(0.995 * (sorted.length - 1))];
  const scale = 255 / Math.max(1e-6, high - low);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, (out[i] - low) * scale));
  return out;
}
