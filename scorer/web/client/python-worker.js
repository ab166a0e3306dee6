// tourpad's Python worker (replaces the Flet client's python-worker.js in a published site).
//
// Flet's own worker is created only once Flutter has loaded and asks for Python, and then installs the app
// with micropip from an app archive: every step waits for the one before. This one is created with the page
// (python.js), so Pyodide boots, the wheels load and the app's modules import while Flutter's engine loads
// on the page's thread; when Flutter asks ("connect"), only the app's start is left. It speaks the same
// protocol to the page as Flet's: "initialized" or an error text once connected, then protocol bytes.
//
// Python's compiled bytecode for the start is kept in the browser's Cache storage after the first visit
// (scorer/web/bytecode.py), so later starts import without compiling.
//
// Pyodide's own start is kept too, as a memory snapshot of the interpreter taken on the first visit before
// any package is loaded (a snapshot cannot hold a loaded package or a native library): initialised, with
// the standard library modules the app uses imported. Later starts restore it instead.
//
// Timings go to the page as {tourpadMark, at} (at: an absolute time in ms); the page records them as
// performance marks (`tourpad bench publish` reports them).

const mark = (name) => self.postMessage({tourpadMark: name, at: performance.timeOrigin + performance.now()});

let askedToConnect;
const connectRequest = new Promise((resolve) => { askedToConnect = resolve; });
let sendToPython = null;
// Flet's Python side reads and sets names on this module (documentUrl, start_connection, send)
const fletJs = {};

// The bytecode bundle's cache; its name keeps it apart from the service worker's "tourpad-<version>" caches.
const BYTECODE_CACHE = "bytecode-of-tourpad";
// Milliseconds after the first screen before the first visit compiles the bundle (it yields as it goes).
const BYTECODE_DELAY_MS = 1000;
const BYTECODE_FILE = "/tmp/tourpad-bytecode.zip";

// The bundle belongs to exactly these wheels on exactly this runtime.
async function bytecodeKey(pyodide) {
  const hashes = Object.values(pyodide.lockfile.packages).map((p) => p.file_name + " " + p.sha256).sort();
  const text = new TextEncoder().encode([pyodide.version, ...hashes].join("\n"));
  return new URL("tourpad-bytecode/" + await hexDigest(text), self.location.href).href;
}

async function readBytecode(key) {
  const hit = await (await caches.open(BYTECODE_CACHE)).match(key);
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}

async function saveBytecode(pyodide, key) {
  const bundle = await pyodide.runPythonAsync("import scorer.web.bytecode\nawait scorer.web.bytecode.bundle()");
  const data = bundle.toJs();
  bundle.destroy();
  const cache = await caches.open(BYTECODE_CACHE);
  for (const old of await cache.keys()) await cache.delete(old);  // an earlier version's
  await cache.put(key, new Response(data));
  mark("tourpad:bytecode-saved");
}

// The interpreter snapshot's cache (one entry), keyed by what the snapshot imports; Pyodide itself refuses
// a snapshot of another build (then the worker starts afresh and keeps a new one).
const SNAPSHOT_CACHE = "pyodide-snapshot-of-tourpad";
// Standard library modules the app imports, imported before the snapshot is taken. They fit in Pyodide's
// initial memory: a snapshot can only be restored into that (Pyodide 314 does not grow the memory first),
// which is why the app's libraries are not in it (flet alone grows the memory).
const SNAPSHOT_IMPORTS = "import asyncio, dataclasses, enum, inspect, json, logging, re, typing, datetime, " +
  "pathlib, zipfile, tomllib, importlib.metadata, importlib.resources, functools, collections, contextlib, " +
  "sqlite3, decimal, zoneinfo, uuid, textwrap, string, hashlib, base64, io, math, random, itertools, " +
  "weakref, copy, types, traceback, warnings, tempfile, shutil, struct, bisect, heapq, operator, " +
  "fractions, statistics, email.utils, urllib.parse, html, unicodedata, py_compile";

async function hexDigest(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function readSnapshot() {
  try {
    const name = "tourpad-pyodide-snapshot/" + await hexDigest(new TextEncoder().encode(SNAPSHOT_IMPORTS));
    const key = new URL(name, self.location.href).href;
    const hit = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return {key, snapshot: hit ? new Uint8Array(await hit.arrayBuffer()) : null};
  } catch (error) {
    console.warn("pyodide snapshot:", error);
    return {key: null, snapshot: null};
  }
}

function keepSnapshot(pyodide, key, initialMemory) {
  if (pyodide._module.HEAP8.length !== initialMemory) {
    console.warn("pyodide snapshot: the imports outgrew the initial memory; no snapshot kept");
    return;
  }
  const fresh = pyodide.makeMemorySnapshot();
  (async () => {  // stored while the start goes on
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old);  // an earlier version's
    await cache.put(key, new Response(fresh));
    mark("tourpad:pyodide-snapshot-saved");
  })().catch((error) => console.warn("pyodide snapshot:", error));
}

async function startPython(loadPyodide, savedSnapshot) {
  const options = {stdout: (text) => console.log(text), stderr: (text) => console.error(text)};
  const {key, snapshot} = await savedSnapshot;
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({...options, _loadSnapshot: snapshot});
      mark("tourpad:pyodide-restored");
      return pyodide;
    } catch (error) {
      console.warn("pyodide snapshot:", error);  // another Pyodide build's: start afresh, keep a new one
    }
  }
  const pyodide = await loadPyodide({...options, _makeSnapshot: true});
  if (key) {
    try {
      const initialMemory = pyodide._module.HEAP8.length;
      pyodide.runPython(SNAPSHOT_IMPORTS);
      keepSnapshot(pyodide, key, initialMemory);
    } catch (error) {
      console.warn("pyodide snapshot:", error);  // this start goes on; the next one tries again
    }
  }
  return pyodide;
}

const receiveFromPython = (message) => {
  // a fresh Uint8Array from Python's bytes: its buffer can move to the page without a copy
  const bytes = message.toJs();
  self.postMessage(bytes, [bytes.buffer]);
};

async function boot({pyodideUrl}) {
  mark("tourpad:worker-started");
  const savedSnapshot = readSnapshot();  // read while the runtime's script loads
  const {loadPyodide} = await import(pyodideUrl);
  const pyodide = await startPython(loadPyodide, savedSnapshot);
  mark("tourpad:pyodide-ready");
  pyodide.registerJsModule("flet_js", fletJs);
  const key = bytecodeKey(pyodide);
  const saved = key.then(readBytecode).catch((error) => console.warn("bytecode cache:", error));
  // the site's lock lists our wheel with every dependency: one call fetches them together
  await pyodide.loadPackage("tourpad", {messageCallback: () => {}});
  mark("tourpad:wheels-loaded");
  const bytecode = await saved;
  if (bytecode) {
    try {
      pyodide.FS.writeFile(BYTECODE_FILE, bytecode);
      await pyodide.runPythonAsync(`import scorer.web.bytecode
with open("${BYTECODE_FILE}", "rb") as saved:
    scorer.web.bytecode.install(saved.read())`);
      mark("tourpad:bytecode-installed");
    } catch (error) {
      console.warn("bytecode cache:", error);  // the app compiles its modules as without a cache
    }
  }
  await pyodide.runPythonAsync("import scorer.web.app\nscorer.web.app.load()");
  mark("tourpad:app-imported");
  return {pyodide, key, hasBytecode: !!bytecode};
}

async function connect(started) {
  const [{pyodide, key, hasBytecode}, request] = await Promise.all([started, connectRequest]);
  fletJs.documentUrl = request.documentUrl;
  fletJs.args = request.args;
  // ft.run in Pyodide makes the connection object, which wants a running event loop: hence the async run
  await pyodide.runPythonAsync("scorer.web.app.run()");
  await fletJs.start_connection(receiveFromPython);
  sendToPython = fletJs.send;
  mark("tourpad:python-connected");
  if (!hasBytecode) {
    setTimeout(() => key.then((k) => saveBytecode(pyodide, k))
                        .catch((error) => console.warn("bytecode cache:", error)), BYTECODE_DELAY_MS);
  }
}

// --- The code reader (scorer/scan/browser.py calls these) -----------------------------------------------
// read(bytes, known): every QR code in a photo with its corners (code-reader.js and zxing-wasm, loaded the
// first time a player scans; `known`: the card codes the game may show); readAround(x, y, size, doubt,
// edges): a close look at one place of that photo.
// photo(labels): the page's camera view (camera.js); resolves {bytes, error}.
let photoAnswered = null;
self.tourpadCodeReader = {
  read: async (bytes, known) => (await import("./code-reader.js")).readCodes(bytes, known),
  readAround: async (x, y, size, doubt, edges) => (await import("./code-reader.js")).readAround(x, y, size, doubt,
                                                                                                  edges),
  photo: (labels) => new Promise((resolve) => {
    if (photoAnswered) photoAnswered({bytes: null, error: "cancelled"});
    photoAnswered = resolve;
    self.postMessage({tourpadCamera: labels});
  }),
};

// --- A table's data channel (scorer/table/page_channel.py calls these) -----------------------------------
// call(name, ...args): the page's peer.js does it (offer, answer, accept, send, close) and answers; listen(fn):
// fn(kind, id, detail) for every event of the page's channels (open, message, closed, failed).
let peerAsks = 0;
const peerWaiting = new Map();
let peerListener = null;
self.tourpadPeer = {
  call: (call, ...args) => new Promise((resolve, reject) => {
    const ask = ++peerAsks;
    peerWaiting.set(ask, {resolve, reject});
    self.postMessage({tourpadPeer: {ask, call, args}});
  }),
  listen: (listener) => { peerListener = listener; },
};

function peerAnswered({ask, value, error}) {
  const waiting = peerWaiting.get(ask);
  peerWaiting.delete(ask);
  if (waiting && error !== undefined) waiting.reject(new Error(error));
  else if (waiting) waiting.resolve(value);
}

self.onmessage = (event) => {
  const data = event.data;
  if (data && data.tourpadPhoto) {
    const answered = photoAnswered;
    photoAnswered = null;
    if (answered) answered(data.tourpadPhoto);
  } else if (data && data.tourpadPeerReply) {
    peerAnswered(data.tourpadPeerReply);
  } else if (data && data.tourpadPeerEvent) {
    const {kind, id, detail} = data.tourpadPeerEvent;
    if (peerListener) peerListener(kind, id, detail);
  } else if (sendToPython) {
    sendToPython(data);
  } else if (data && data.tourpadBoot) {
    connect(boot(data.tourpadBoot)).then(() => self.postMessage("initialized"),
                                          (error) => self.postMessage(String(error)));
  } else if (data && data.tourpadConnect) {
    askedToConnect(data.tourpadConnect);
  } else {
    console.error("tourpad: dropped a message for a Python app that has not started");
  }
};
