// tourpad's bridge between the Flet client (Dart) and Python (replaces the Flet client's python.js in a
// published site). The Python worker is created as this script loads, long before Flutter's engine has
// loaded and calls jsConnect, so Python starts in parallel with it (see python-worker.js).

const tourpadPython = {worker: null, apps: {}};

function tourpadStartWorker() {
  const worker = new Worker(new URL("python-worker.js", document.baseURI), {type: "module"});
  worker.tourpadReply = new Promise((resolve) => { worker.tourpadReplied = resolve; });
  worker.onmessage = (event) => {
    const data = event.data;
    if (data && data.tourpadMark) {
      performance.mark(data.tourpadMark, {startTime: data.at - performance.timeOrigin});
    } else if (data && data.tourpadCamera) {
      tourpadCamera(worker, data.tourpadCamera);
    } else if (data && data.tourpadPeer) {
      tourpadPeer(worker, data.tourpadPeer);
    } else if (typeof data === "string") {
      worker.tourpadReplied(data);  // "initialized", or why Python could not start
    } else if (worker.tourpadOnMessage) {
      worker.tourpadOnMessage(data);
    }
  };
  worker.postMessage({tourpadBoot: {pyodideUrl: flet.pyodideUrl}});
  return worker;
}

// --- The camera (scorer/scan/browser.py asks for a photo; camera.js shows the rear camera's view) ---------
// Loaded the first time a player opens the camera; the photo's bytes (or why there is none) go back to the
// worker as {tourpadPhoto: {bytes, error}}.
function tourpadCamera(worker, labels) {
  import(new URL("camera.js", document.baseURI).href)
    .then((camera) => camera.takePhoto(labels))
    .catch((error) => ({bytes: null, error: String(error)}))
    .then((answer) => worker.postMessage({tourpadPhoto: answer}, answer.bytes ? [answer.bytes.buffer] : []));
}

// --- A table's data channel (issue 41: workers have no WebRTC; peer.js carries the channel on the page) ----
// Loaded the first time the worker asks; peer.js answers the worker's request and sends it the channel's events.
function tourpadPeer(worker, request) {
  import(new URL("peer.js", document.baseURI).href)
    .then((peer) => peer.serve(worker, request))
    .catch((error) => worker.postMessage({tourpadPeerReply: {ask: request.ask, error: String(error)}}));
}

tourpadPython.worker = tourpadStartWorker();

// Called from Dart on backend.connect(); dartOnMessage takes the protocol bytes from Python.
globalThis.jsConnect = async function (appId, args, dartOnMessage) {
  performance.mark("tourpad:flutter-connect");
  // the first app takes the worker started with the page; another (after a disconnect) starts its own
  const worker = tourpadPython.worker || tourpadStartWorker();
  tourpadPython.worker = null;
  tourpadPython.apps[appId] = worker;
  worker.tourpadOnMessage = dartOnMessage;
  worker.postMessage({tourpadConnect: {args: args, documentUrl: document.URL}});
  const reply = await worker.tourpadReply;
  // the app's files are loaded (or failed to): a new release of the site may take over (index.html)
  dispatchEvent(new Event("tourpad:start-done"));
  if (reply !== "initialized") {
    console.error("Python worker init error:", reply);
    await jsDisconnect(appId);
    throw reply;
  }
  performance.mark("tourpad:python-initialized");
};

// Called from Dart on backend.send: the data's buffer moves to the worker (Dart no longer uses it).
globalThis.jsSend = async function (appId, data) {
  const worker = tourpadPython.apps[appId];
  if (worker) worker.postMessage(data, [data.buffer]);
};

// Called from Dart on channel.disconnect.
globalThis.jsDisconnect = async function (appId) {
  const worker = tourpadPython.apps[appId];
  if (worker) {
    delete tourpadPython.apps[appId];
    worker.terminate();
    worker.onmessage = null;
  }
};
