// tourpad's offline cache (`tourpad publish` fills in VERSION and FILES; see scorer/web/publish.py).
//
// Each file is stored as this browser first fetches it through here, never downloaded a second time: the page
// waits for this worker before it loads the app (index.html), so every request of the app passes through it.
// Only what this browser uses is kept: one of Flutter's two renderers, the CanvasKit variant it picks, and any
// file fetched on demand (a reader loaded when a screen needs it) once it has been.
//
// FILES lists every file of the site with a hash of its content. A new release (a new VERSION) keeps each
// stored file whose hash is unchanged, copying it into its own cache, fetches anew only the stored files whose
// content changed, and replaces the old cache once it is complete. Games are in IndexedDB, never touched here;
// Python's start-up caches (python-worker.js) are named apart.
//
// A new release takes over only when no page is starting the old one: as soon as the old release's pages are
// gone, or when a page of it says its start is done ("tourpad:take-over", see PAGE_ADDITIONS in publish.py).
// Taking over swaps the worker under every open page: a page still starting would load the old release's
// package list and the new release's wheel, which Pyodide refuses (their hashes differ), and the app fails.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "tourpad-" + VERSION;
// Kept in each cache beside the files: the FILES they were stored for (what the next release compares).
const LIST = "tourpad-files.json";
// FILES' hashes: the first bytes of each file's SHA-256, in hex.
const HASH_BYTES = __HASH_BYTES__;
// The page's own files, fetched by the page before this worker existed: on the first visit they are taken
// from the browser's HTTP cache (where the page's requests left them), so they too are fetched once.
const PAGE_FILES = ["index.html", "icons/loading-animation.png", "favicon.png"];

const scope = () => self.registration.scope;

// The site file a request asks for (a navigation to anything but a file of the site opens the app's page),
// or null.
function fileOf(request) {
  const url = new URL(request.url);
  const base = new URL(scope());
  let path = null;
  if (url.origin === base.origin && url.pathname.startsWith(base.pathname)) {
    try {
      path = decodeURIComponent(url.pathname.slice(base.pathname.length)) || "index.html";
    } catch {
      path = null;
    }
  }
  if (path !== null && Object.hasOwn(FILES, path)) return path;
  return request.mode === "navigate" ? "index.html" : null;
}

async function contentHash(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, HASH_BYTES), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The newest complete cache of an earlier release (LIST is written last; a cache without it is not one).
async function previousCache() {
  const names = (await caches.keys()).filter((k) => k.startsWith("tourpad-") && k !== CACHE);
  for (const name of names.reverse()) {
    const cache = await caches.open(name);
    if (await cache.match(new URL(LIST, scope()).href)) return cache;
  }
  return null;
}

async function install() {
  const cache = await caches.open(CACHE);
  const previous = await previousCache();
  const stored = new Set();
  if (previous) {
    // a release before this one: keep what is unchanged, fetch anew what this browser had and has changed
    const listed = await previous.match(new URL(LIST, scope()).href);
    const before = listed ? await listed.json() : null;
    for (const request of await previous.keys()) {
      const path = fileOf(new Request(request.url));
      if (path === null || stored.has(path)) continue;
      const url = new URL(path, scope()).href;
      const kept = await previous.match(request);
      // a cache from before FILES had hashes: the hash of what it holds
      const hash = before ? before[path] : await contentHash(await kept.clone().arrayBuffer());
      if (hash === FILES[path]) {
        await cache.put(url, kept);
      } else {
        const fresh = await fetch(url, {cache: "no-cache"});
        if (!fresh.ok) throw new Error(`${path}: ${fresh.status}`);
        await cache.put(url, fresh);
      }
      stored.add(path);
    }
  }
  for (const path of PAGE_FILES) {
    if (stored.has(path) || !Object.hasOwn(FILES, path)) continue;
    // the page in this browser's HTTP cache, as it was just fetched (the network only if it is not there)
    const url = new URL(path === "index.html" ? "./" : path, scope()).href;
    const response = await fetch(url, {cache: "force-cache"});
    if (response.ok) await cache.put(new URL(path, scope()).href, response);
  }
  await cache.put(new URL(LIST, scope()).href, new Response(JSON.stringify(FILES),
                                                           {headers: {"Content-Type": "application/json"}}));
}

self.addEventListener("install", (event) => {
  event.waitUntil(install());
});

self.addEventListener("message", (event) => {
  if (event.data === "tourpad:take-over") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tourpad-") && k !== CACHE)
                                    .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const path = fileOf(request);
  if (path === null) return;  // not a file of this site: the network, as without this worker
  event.respondWith((async () => {
    const key = new URL(path, scope()).href;
    // never caches.open here: once a new release has deleted this one's cache, opening it would make it anew
    const hit = await caches.match(key, {cacheName: CACHE});
    if (hit) return hit;
    const response = await fetch(request);
    if (response.status === 200 && await caches.has(CACHE)) {
      // stored whole (the page reads its copy meanwhile); a partial or failed answer is never kept
      const copy = response.clone();  // before the page reads the body
      const stored = caches.open(CACHE).then((cache) => cache.put(key, copy));
      event.waitUntil(stored.catch((e) => console.warn("offline cache:", path, e)));
    }
    return response;
  })());
});
