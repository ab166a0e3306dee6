// The camera's view in the published web app: the rear camera's live picture over the app, a frame to fill
// with the row of cards, a shutter and Cancel. The app itself (Python, in its worker) cannot open the camera:
// it asks the page (python.js passes {tourpadCamera: labels} here), and gets the photo's JPEG bytes back, or
// null with the reason (no camera, refused, cancelled). The bytes go to the code reader like a photo file's.
//
// Browsers open the camera only on a secure origin (https, or localhost).

const STYLE = `
#tourpad-camera { position: fixed; inset: 0; z-index: 2147483647; background: #000; display: flex;
  flex-direction: column; font: 16px/1.3 Roboto, system-ui, sans-serif; color: #fff; }
#tourpad-camera .view { position: relative; flex: 1; overflow: hidden; }
#tourpad-camera video { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
#tourpad-camera .frame { position: absolute; left: 4%; right: 4%; top: 30%; bottom: 30%;
  border: 3px solid #fff; border-radius: 12px; box-shadow: 0 0 0 100vmax rgba(0, 0, 0, 0.45); }
#tourpad-camera .hint { position: absolute; left: 16px; right: 16px; top: 16px; text-align: center;
  text-shadow: 0 1px 3px #000; }
#tourpad-camera .bar { display: flex; gap: 12px; padding: 16px; justify-content: space-between;
  align-items: center; }
#tourpad-camera button { min-height: 48px; min-width: 96px; border-radius: 24px; border: 2px solid #fff;
  background: transparent; color: #fff; font: inherit; padding: 0 20px; }
#tourpad-camera button.shutter { background: #fff; color: #000; font-weight: bold; }
`;

let open = null;  // the view on screen, if any: a second request replaces it

function element(tag, attributes = {}, text = "") {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  if (text) made.textContent = text;
  return made;
}

// labels: {title, hint, shutter, cancel, noCamera} (translated by the app). Resolves {bytes, error}: bytes a
// Uint8Array (JPEG) or null; error null, "cancelled", or the browser's reason.
export async function takePhoto(labels) {
  if (open) open.finish({bytes: null, error: "cancelled"});
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    return {bytes: null, error: labels.noCamera};
  }
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false, video: {facingMode: {ideal: "environment"}, width: {ideal: 1920}, height: {ideal: 1080}},
    });
  } catch (error) {
    return {bytes: null, error: `${labels.noCamera} (${error.name || error})`};
  }
  const style = element("style", {}, STYLE);
  const root = element("div", {id: "tourpad-camera", role: "dialog", "aria-modal": "true",
                               "aria-label": labels.title});
  const view = element("div", {class: "view"});
  const video = element("video", {autoplay: "", playsinline: "", muted: ""});
  video.muted = true;
  video.srcObject = stream;
  view.append(video, element("div", {class: "frame", "aria-hidden": "true"}), element("p", {class: "hint"},
                                                                                       labels.hint));
  const bar = element("div", {class: "bar"});
  const cancel = element("button", {type: "button", id: "tourpad-camera-cancel"}, labels.cancel);
  const shutter = element("button", {type: "button", id: "tourpad-camera-shutter", class: "shutter"},
                          labels.shutter);
  bar.append(cancel, shutter);
  root.append(view, bar);
  document.head.append(style);
  document.body.append(root);
  return new Promise((resolve) => {
    const finish = (answer) => {
      if (open !== view_) return;
      open = null;
      for (const track of stream.getTracks()) track.stop();
      root.remove();
      style.remove();
      resolve(answer);
    };
    const view_ = {finish};
    open = view_;
    cancel.addEventListener("click", () => finish({bytes: null, error: "cancelled"}));
    shutter.addEventListener("click", async () => {
      if (!video.videoWidth) return;  // no picture yet
      shutter.disabled = true;
      const board = document.createElement("canvas");
      board.width = video.videoWidth;
      board.height = video.videoHeight;
      board.getContext("2d").drawImage(video, 0, 0);
      const blob = await new Promise((done) => board.toBlob(done, "image/jpeg", 0.95));
      finish({bytes: new Uint8Array(await blob.arrayBuffer()), error: null});
    });
    video.play().catch(() => {});
    shutter.focus();
  });
}
