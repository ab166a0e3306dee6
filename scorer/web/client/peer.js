// A table's phones, phone to phone: the WebRTC data channel between a host phone and each guest (issue 41).
//
// The app's Python runs in a worker, and workers have no WebRTC, so the page carries the channel: the worker
// asks for an offer or an answer, and gets every message the channel brings. What the phones swap as QR codes
// is made in Python from the SDP this gives (scorer/table/peer_code.py packs it, and expands a scanned one
// back into an SDP for `accept` or `answer`).
//
// No ICE servers: the phones are on one local network, so host candidates (the browser's mDNS `.local` names
// or its addresses) are all there is, and nothing is asked of the internet. Both sides make the same channel
// (negotiated, id 0) rather than one side announcing it: it exists from the start on both, one less round.
//
// A connection is named by an id; `events` is told open(id), message(id, text), closed(id) and
// failed(id, reason) — failed when the phones cannot reach each other within OPEN_TIMEOUT_MS of the
// exchange's end (a guest network that keeps phones apart, a network that blocks local names).

// The page says the phones cannot reach each other this long after the last code was scanned (the issue asks
// for plain words within 15 s; ICE gives up on its own only after about 30).
export const OPEN_TIMEOUT_MS = 12000;
// Gathering host candidates takes a few ms; an interface that never answers must not hold up the code.
const GATHER_TIMEOUT_MS = 3000;

const peers = new Map();  // id → {pc, channel, timer}
let made = 0;

function connection(events) {
  const id = `peer-${++made}`;
  const pc = new RTCPeerConnection({iceServers: []});
  const channel = pc.createDataChannel("tourpad", {negotiated: true, id: 0});
  const peer = {pc, channel, timer: null, open: false};
  peers.set(id, peer);
  const fail = (reason) => {
    if (!peers.has(id)) return;
    close(id);
    events.failed?.(id, reason);
  };
  peer.fail = fail;
  channel.onopen = () => {
    peer.open = true;
    clearTimeout(peer.timer);
    events.open?.(id);
  };
  channel.onmessage = (event) => events.message?.(id, event.data);
  channel.onclose = () => {
    if (peer.open && peers.has(id)) {
      close(id);
      events.closed?.(id);
    }
  };
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === "failed") {
      if (peer.open) {
        close(id);
        events.closed?.(id);
      } else {
        fail("unreachable");
      }
    }
  };
  return {id, peer};
}

// The local description once the browser has gathered its host candidates (or GATHER_TIMEOUT_MS passed).
function gathered(pc) {
  return new Promise((resolve) => {
    const done = () => resolve(pc.localDescription.sdp);
    if (pc.iceGatheringState === "complete") return done();
    const timer = setTimeout(done, GATHER_TIMEOUT_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        done();
      }
    });
  });
}

function armTimeout(peer) {
  clearTimeout(peer.timer);
  peer.timer = setTimeout(() => peer.open || peer.fail("timeout"), OPEN_TIMEOUT_MS);
}

// The host's side, for one guest: the offer to show as a code. Resolves {id, sdp}.
export async function offer(events) {
  const {id, peer} = connection(events);
  await peer.pc.setLocalDescription();
  return {id, sdp: await gathered(peer.pc)};
}

// The host's side: the guest's answer, scanned. The channel opens (events.open) or fails (events.failed).
export async function accept(id, answerSdp) {
  const peer = peers.get(id);
  if (!peer) throw new Error(`no connection ${id} waits for an answer`);
  armTimeout(peer);
  await peer.pc.setRemoteDescription({type: "answer", sdp: answerSdp});
}

// The guest's side: the host's offer, scanned. Resolves {id, sdp} with the answer to show as a code; the
// channel opens once the host has scanned it.
export async function answer(offerSdp, events) {
  const {id, peer} = connection(events);
  await peer.pc.setRemoteDescription({type: "offer", sdp: offerSdp});
  await peer.pc.setLocalDescription();
  const sdp = await gathered(peer.pc);
  armTimeout(peer);
  return {id, sdp};
}

// Sends a text; false if the channel is not open (the caller keeps it for after a rejoin).
export function send(id, text) {
  const peer = peers.get(id);
  if (!peer || peer.channel.readyState !== "open") return false;
  peer.channel.send(text);
  return true;
}

export function close(id) {
  const peer = peers.get(id);
  if (!peer) return;
  peers.delete(id);
  clearTimeout(peer.timer);
  peer.channel.close();
  peer.pc.close();
}

// --- The worker's requests (python.js hands each here) ------------------------------------------------------
// {ask, call, args} with call one of offer, answer, accept, send, close; the worker gets back
// {tourpadPeerReply: {ask, value}} or {tourpadPeerReply: {ask, error}}, and every channel's events as
// {tourpadPeerEvent: {kind, id, detail}} (kind open, message, closed or failed; detail the text or the reason).
const CALLS = {
  offer: (events) => offer(events),
  answer: (events, sdp) => answer(sdp, events),
  accept: (events, id, sdp) => accept(id, sdp).then(() => null),
  send: (events, id, text) => send(id, text),
  close: (events, id) => close(id) ?? null,
};

export async function serve(worker, {ask, call, args}) {
  const tell = (kind) => (id, detail = null) => worker.postMessage({tourpadPeerEvent: {kind, id, detail}});
  const events = {open: tell("open"), message: tell("message"), closed: tell("closed"), failed: tell("failed")};
  try {
    if (!Object.hasOwn(CALLS, call)) throw new Error(`the page's data channel has no call ${call}`);
    const value = await CALLS[call](events, ...(args || []));
    worker.postMessage({tourpadPeerReply: {ask, value}});
  } catch (error) {
    worker.postMessage({tourpadPeerReply: {ask, error: String(error)}});
  }
}
