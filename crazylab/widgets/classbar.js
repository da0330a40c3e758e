// The crazylab class bar (anywidget front end): who the learner is and where their answers
// are kept. The browser keeps the learner's random token (localStorage "crazylab.learner":
// token, name, class name; never a teacher key) and, when no class is joined, the learner's
// records ("crazylab.progress", the progress file) — both sent to the kernel when drawn.
// Python decides what the bar says (`state`); no class logic lives here.

const LEARNER_KEY = "crazylab.learner";
const PROGRESS_KEY = "crazylab.progress";
const UNSAVED_KEY = "crazylab.unsaved"; // saves the kernel could not make yet (a restart loses none)

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function load(key) {
  try {
    const v = JSON.parse(window.localStorage.getItem(key) || "null");
    return v && typeof v === "object" ? v : null;
  } catch (e) {
    return null;
  }
}

function store(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    /* private mode or full: the page still works, it just forgets */
  }
}

function randomId() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function progressFile() {
  let p = load(PROGRESS_KEY);
  if (!p || p.format !== "crazylab-progress") {
    p = { format: "crazylab-progress", version: 1, learner: { id: randomId(), name: "" }, attempts: [], practice: [] };
    store(PROGRESS_KEY, p);
  }
  p.attempts = Array.isArray(p.attempts) ? p.attempts : [];
  p.practice = Array.isArray(p.practice) ? p.practice : [];
  p.learner = p.learner && typeof p.learner === "object" ? p.learner : { id: randomId(), name: "" };
  if (!p.learner.id) p.learner.id = randomId();
  return p;
}

// add the kernel's records (by attempt_id, so a record sent twice is kept once)
function keep(records) {
  if (!records || !records.length) return;
  const p = progressFile();
  const seen = new Set([...p.attempts, ...p.practice].map((r) => r.attempt_id));
  let added = false;
  for (const rec of records) {
    if (!rec || !rec.attempt_id || seen.has(rec.attempt_id)) continue;
    const { type, ...data } = rec;
    (type === "practice" ? p.practice : p.attempts).push(data);
    seen.add(rec.attempt_id);
    added = true;
  }
  if (added) store(PROGRESS_KEY, p);
}

function download(data, name) {
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  const who = String(name || "").replace(/[^\w-]+/g, "_").slice(0, 40);
  a.href = url;
  a.download = `crazylab-progress${who ? "-" + who : ""}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

let counter = 0;

function render({ model, el }) {
  const id = `cbar${++counter}-${Math.random().toString(36).slice(2, 7)}`;
  el.classList.add("cbar-host");
  let taken = false; // the kernel said it holds the saves this browser kept (see sendBrowser)
  el.innerHTML = `
    <section class="cbar" role="region" aria-label="Your class">
      <p class="cbar-who" data-part="who"></p>
      <div class="cbar-actions">
        <button type="button" class="cbar-link" data-do="not_you" hidden>Not you?</button>
        <button type="button" class="cbar-link" data-do="forget" hidden>Forget me</button>
        <button type="button" class="cbar-button" data-do="download">Download my progress</button>
      </div>
      <div class="cbar-confirm" data-part="confirm" role="group" aria-label="Confirm forget me" hidden>
        <span>Delete all your answers from the class, and from this browser?</span>
        <button type="button" class="cbar-danger" data-do="forget-yes">Yes, forget me</button>
        <button type="button" class="cbar-button" data-do="forget-no">Cancel</button>
      </div>
      <form class="cbar-join" data-part="join" aria-label="Join a class" hidden>
        <span class="cbar-join-title">Join a class</span>
        <label for="${id}-code">Class code</label>
        <input id="${id}-code" name="code" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="64" required>
        <label for="${id}-name" data-part="name-label">Your name</label>
        <input id="${id}-name" name="name" autocomplete="nickname" maxlength="80">
        <button type="submit" class="cbar-button">Join</button>
      </form>
      <p class="cbar-notice" data-part="notice" role="status" aria-live="polite"></p>
      <p class="cbar-error" data-part="error" role="alert"></p>
    </section>`;
  const part = (name) => el.querySelector(`[data-part="${name}"]`);
  const button = (name) => el.querySelector(`[data-do="${name}"]`);
  const form = part("join");

  function draw() {
    const s = model.get("state") || {};
    const mode = s.mode || "browser";
    const who = part("who");
    if (mode === "joined" || (mode === "hub" && s.class_name)) {
      who.innerHTML = `You are <b>${esc(s.name)}</b> in <b>${esc(s.class_name)}</b>`;
    } else if (mode === "hub") {
      who.innerHTML = `You are <b>${esc(s.name)}</b>: your answers are kept for you`;
    } else if (mode === "waiting") {
      const me = load(LEARNER_KEY) || {};
      who.innerHTML = `You are <b>${esc(me.name || "")}</b>${me.class_name ? ` in <b>${esc(me.class_name)}</b>` : ""}: reaching your class…`;
    } else {
      who.textContent = "Working on your own: your answers are kept in this browser";
    }
    button("not_you").hidden = !(mode === "joined" || mode === "waiting");
    button("forget").hidden = !(mode === "joined" || mode === "hub");
    if (button("forget").hidden) part("confirm").hidden = true;
    const joinable = s.can_join && (mode === "browser" || (mode === "hub" && !s.class_name));
    form.hidden = !joinable;
    const hubJoin = mode === "hub";
    form.elements.name.hidden = hubJoin;
    part("name-label").hidden = hubJoin;
    form.elements.name.required = !hubJoin;
    part("notice").textContent = s.notice || "";
    part("error").textContent = s.error || s.refused || "";
    el.querySelector(".cbar").dataset.mode = mode;
  }

  function sendBrowser() {
    const p = progressFile();
    const me = load(LEARNER_KEY);
    const unsaved = load(UNSAVED_KEY);
    // the kernel takes them back, says "taken", and from then on `unsaved` is what still
    // waits; until then the copy stays here (a kernel lost first loses none)
    taken = false;
    model.set("browser", {
      id: p.learner.id,
      name: (me && me.name) || p.learner.name || "",
      progress: p,
      unsaved: Array.isArray(unsaved) ? unsaved : [],
    });
    model.set("token", (me && typeof me.token === "string" && me.token) || "");
    model.save_changes();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = form.elements.code.value.trim();
    const name = form.elements.name.value.trim();
    part("error").textContent = "";
    model.send({ do: "join", code, name });
  });
  button("not_you").addEventListener("click", () => {
    store(LEARNER_KEY, null);
    model.set("token", "");
    model.save_changes();
    model.send({ do: "not_you" });
    setTimeout(() => form.elements.code.focus(), 0);
  });
  button("forget").addEventListener("click", () => {
    part("confirm").hidden = false;
    button("forget-no").focus();
  });
  button("forget-no").addEventListener("click", () => {
    part("confirm").hidden = true;
    button("forget").focus();
  });
  button("forget-yes").addEventListener("click", () => {
    part("confirm").hidden = true;
    model.send({ do: "forget" });
  });
  button("download").addEventListener("click", () => {
    const s = model.get("state") || {};
    if (s.mode === "browser") {
      const p = progressFile();
      download(p, p.learner.name || p.learner.id);
    } else {
      model.send({ do: "download" });
    }
  });

  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.event === "joined" && msg.learner && msg.learner.token) {
      const l = msg.learner;
      store(LEARNER_KEY, { token: String(l.token), name: String(l.name || ""), class_name: String(l.class_name || "") });
      model.set("token", String(l.token));
      model.save_changes();
      form.reset();
    } else if (msg.event === "forgotten") {
      store(LEARNER_KEY, null);
      if (msg.all) store(PROGRESS_KEY, null);
      model.set("token", "");
      model.save_changes();
    } else if (msg.event === "taken") {
      taken = true;
      onUnsaved();
    } else if (msg.event === "download" && msg.data) {
      download(msg.data, (msg.data.learner && msg.data.learner.name) || "");
    }
  };
  const onOutbox = () => keep(model.get("outbox"));
  const onUnsaved = () => {
    if (!taken) return; // the kernel has not confirmed it holds the browser's copy yet
    const list = model.get("unsaved") || [];
    store(UNSAVED_KEY, list.length ? list : null);
  };
  model.on("msg:custom", onMessage);
  model.on("change:state", draw);
  model.on("change:outbox", onOutbox);
  model.on("change:unsaved", onUnsaved);
  onOutbox();
  draw();
  sendBrowser();
  onUnsaved();
  return () => {
    model.off("msg:custom", onMessage);
    model.off("change:state", draw);
    model.off("change:outbox", onOutbox);
    model.off("change:unsaved", onUnsaved);
  };
}

export default { render };
