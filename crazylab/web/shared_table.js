// A table shared by a class (issue 23): this browser's seat at a game the server holds.
// The page is served at <base>crazylab/tables/t/<code>; everything else is found relative to it
// (../static/, ../api/, ../ws/<code>), so it works under any base URL (a JupyterHub service too).
//
// The game itself is the ordinary game table (table.js, unchanged): it is given a tiny model
// (get/set/on/off/send/save_changes) fed by the table's websocket. "welcome" carries the seat's
// snapshot, "steps" are the table's own step messages, the table's actions go back with the last
// version this browser was sent, and a "refused" move shows its one line under the table.
// The seat token lives in localStorage per code (never in a URL); a dropped socket reconnects
// with backoff and says hello with the same token, so the learner keeps their seat.

const STORE = (code) => `crazylab.table.${code}`;
const LEVELS = ["rules", "random", "mc"];
const BACKOFF = [250, 500, 1000, 2000, 4000, 8000];

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** The seat this browser holds at `code` ({token, seat, name}), or null. */
export function loadSeat(code) {
  try {
    const seat = JSON.parse(localStorage.getItem(STORE(code)) || "null");
    return seat && seat.token ? seat : null;
  } catch {
    return null;
  }
}

export function saveSeat(code, seat) {
  localStorage.setItem(STORE(code), JSON.stringify(seat));
}

/** On a JupyterHub, the name the hub gave the visitor (a seat takes it, whatever is typed);
 * null elsewhere. Fills and locks the given name fields with it. */
export async function hubName(base, inputs = []) {
  let name = null;
  try {
    const resp = await fetch(new URL("api/me", base), { cache: "no-store" });
    if (resp.ok) name = (await resp.json()).name || null;
  } catch {
    name = null;
  }
  for (const input of inputs) {
    if (!name) continue;
    input.value = name;
    input.readOnly = true;
    input.title = "Your name on the hub";
  }
  return name;
}

/** POST a JSON body to the tables API; resolves the JSON answer or throws its one-line error. */
export async function api(base, path, body, headers = {}) {
  const resp = await fetch(new URL(`api/${path}`, base), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
    cache: "no-store",
  });
  let data = {};
  try {
    data = await resp.json();
  } catch {
    data = {};
  }
  if (!resp.ok) {
    const wait = resp.headers.get("Retry-After");
    throw new Error((data.error || `The server answered ${resp.status}.`) + (wait ? ` Try again in ${wait} s.` : ""));
  }
  return data;
}

/** `<base>crazylab/tables/` from this page's own address (…/t/<code>, …/tournament/<id>, …/). */
export function tablesBase() {
  const path = location.pathname;
  const m = path.match(/^(.*\/crazylab\/tables\/)/);
  return location.origin + (m ? m[1] : path.replace(/[^/]*$/, ""));
}

/** A model with just what table.js uses, fed by the socket instead of a kernel. */
class ModelShim {
  constructor(snapshot, send) {
    this.values = { snapshot, error: "", show_hint: false, four_colour: false };
    this.handlers = new Map();
    this.sendFn = send;
  }
  get(key) {
    return this.values[key];
  }
  set(key, value) {
    this.values[key] = value;
    this.emit(`change:${key}`, value);
  }
  save_changes() {}
  on(name, fn) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name).add(fn);
  }
  off(name, fn) {
    if (!name) return this.handlers.clear();
    const set = this.handlers.get(name);
    if (set) fn ? set.delete(fn) : set.clear();
  }
  emit(name, ...args) {
    for (const fn of [...(this.handlers.get(name) || [])]) fn(...args);
  }
  send(msg) {
    this.sendFn(msg);
  }
}

const pct = (x) => (x === null || x === undefined ? "—" : `${Math.round(x * 100)}%`);

/** The win chance of the move played and of the best move at each choice, as inline SVG. */
function reviewChart(rated) {
  if (!rated.length) return "";
  const [width, height, left, top] = [520, 170, 44, 12];
  const [innerW, innerH] = [width - left - 12, height - top - 30];
  const step = innerW / Math.max(1, rated.length - 1);
  const y = (p) => (top + (1 - p) * innerH).toFixed(1);
  const point = (i, p) => `${(left + i * step).toFixed(1)},${y(p)}`;
  const win = (d, move) => (d.moves.find((m) => m.move === move) || {}).win || 0;
  const grid = [0, 0.5, 1].map((p) => `<line x1="${left}" x2="${left + innerW}" y1="${y(p)}" y2="${y(p)}" stroke="#e3e7ee"/>`
    + `<text x="${left - 6}" y="${(+y(p) + 4).toFixed(1)}" text-anchor="end">${p * 100}%</text>`).join("");
  const marks = rated.map((d, i) => `<text x="${(left + i * step).toFixed(1)}" y="${height - 10}" text-anchor="middle">${d.ply + 1}</text>`).join("");
  return `<svg class="st-review-chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}"
    aria-label="Your win chance at each choice: the move you played, and the best move">${grid}${marks}
    <polyline fill="none" stroke="#7a8aa6" stroke-width="2" stroke-dasharray="4 3" points="${rated.map((d, i) => point(i, win(d, d.best))).join(" ")}"/>
    <polyline fill="none" stroke="#1a5fb4" stroke-width="2.5" points="${rated.map((d, i) => point(i, win(d, d.played))).join(" ")}"/>
    </svg><p class="st-review-key"><span class="st-key-played">── the move you played</span> <span class="st-key-best">┄┄ the best move</span></p>`;
}

/** A finished hand's review (the server's, of this seat only): a summary, the chart, each
 * choice with its verdict and why, and a button per choice that shows its position. */
function reviewHtml(review) {
  const rated = review.decisions.filter((d) => d.verdict !== "forced" && d.verdict !== "unrated");
  const costly = rated.filter((d) => d.verdict !== "good");
  const items = rated.map((d) => {
    const played = d.moves.find((m) => m.move === d.played) || d.moves[0];
    const best = d.moves[0];
    return `<li class="st-verdict-${esc(d.verdict)}"><button class="st-btn st-rv-step" data-ply="${d.ply}">Move ${d.ply + 1}</button>
      you played <b>${esc(played.display)}</b> (${pct(played.win)}); best <b>${esc(best.display)}</b> (${pct(best.win)}):
      <span class="st-verdict">${esc(d.verdict)}</span>${d.why ? `<br><small>${esc(d.why)}</small>` : ""}</li>`;
  }).join("");
  return `<p class="st-review-summary">${review.decisions.length} moves of yours, ${rated.length} with a choice:
    ${rated.length - costly.length} good, ${costly.length} costly (win chance over the deals the engine
    sampled from what you could see).</p>${reviewChart(rated)}<ol class="st-review-list">${items}</ol>
    <p class="st-review-position" aria-live="polite"></p>`;
}

function lobbyHtml(st) {
  const lob = st.lobby || {};
  const names = lob.names || [];
  const kinds = lob.kinds || [];
  const host = st.seat === lob.host;
  const link = new URL(`t/${lob.code || st.code}`, st.base).href;
  const rows = names
    .map((n, s) => {
      const kind = kinds[s] || "empty";
      const you = s === st.seat ? ' <span class="st-you">you</span>' : "";
      const who = kind === "empty" ? '<i class="st-empty">empty seat</i>' : esc(n);
      let ctl = "";
      if (host && !lob.started && s !== st.seat && (kind === "empty" || kind === "bot")) {
        const opts = ["", ...LEVELS]
          .map((l) => `<option value="${l}"${(kind === "bot" ? lob.levels?.[s] || n : "") === l ? " selected" : ""}>${l ? `bot: ${l}` : "empty"}</option>`)
          .join("");
        ctl = `<select data-seat="${s}" aria-label="Seat ${s + 1}: bot or empty">${opts}</select>`;
      }
      return `<li class="st-seat st-${esc(kind)}" data-seat="${s}"><span class="st-num">${s + 1}</span> ${who}${you}
        <span class="st-kind">${esc(kind)}</span>${s === lob.host ? ' <span class="st-host">host</span>' : ""}${ctl}</li>`;
    })
    .join("");
  const empty = kinds.filter((k) => k === "empty").length;
  const buttons = host
    ? lob.started
      ? ""
      : `<div class="st-host-actions">
          <button class="st-btn" data-do="fill"${empty ? "" : " disabled"}>Fill empty seats with bots</button>
          <select data-fill-level aria-label="Level of the bots that fill the seats">${LEVELS.map((l) => `<option>${l}</option>`).join("")}</select>
          <button class="st-btn st-primary" data-do="start"${empty ? " disabled" : ""}>Start</button></div>`
    : lob.started
      ? ""
      : `<p class="st-wait">Waiting for the host to start the table…</p>`;
  const share = lob.started
    ? ""
    : `<p class="st-share">Join code <b class="st-code">${esc(lob.code || st.code)}</b> ·
        <a href="${esc(link)}" class="st-link">${esc(link)}</a>
        <button class="st-btn st-quiet" data-do="copy">Copy link</button></p>`;
  return `<h2 class="st-title">Table ${esc(lob.code || st.code)}${lob.started ? "" : " · waiting for players"}</h2>
    ${share}<ol class="st-seats" aria-label="Seats">${rows}</ol>${buttons}`;
}

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** A card code ("10S", "QH", "JK") as a learner reads it ("10♠"). */
function shown(code) {
  if (!code) return "—";
  const suit = code.slice(-1);
  return SUIT_SIGNS[suit] ? code.slice(0, -1) + SUIT_SIGNS[suit] : code === "JK" ? "Joker" : code;
}

export function publicHtml(f) {
  const seats = f.names
    .map((n, s) => {
      const cls = `st-watch-seat${s === f.to_play ? " st-to-play" : ""}`;
      const cards = f.over && f.hands ? ` · left: ${f.hands[s].map(shown).join(" ") || "none"}` : "";
      const score = f.hand_scores ? ` · hand ${f.hand_scores[s] > 0 ? "+" : ""}${f.hand_scores[s]}` : "";
      return `<li class="${cls}"><b>${esc(n)}</b> <span class="st-kind">${esc(f.kinds[s])}</span>
        · ${f.counts[s]} card${f.counts[s] === 1 ? "" : "s"}${s === f.to_play ? " · <i>to play</i>" : ""}${esc(cards)}${esc(score)}
        · match ${f.scores[s] ?? 0}</li>`;
    })
    .join("");
  const piles = (f.tops || []).map((t, i) => `Pile ${i + 1}: <b>${esc(shown(t))}</b>${f.calls && f.calls[i] ? ` (called ${esc(SUIT_SIGNS[f.calls[i]] || f.calls[i])})` : ""}`).join(" · ");
  const all = f.log || [];
  const log = all.slice(-30).map((l) => `<li>${esc(l)}</li>`).join("");
  const first = Math.max(1, all.length - 29); // the lines keep their numbers in the hand
  const state = !f.started ? "waiting for players" : f.over ? "the hand is over" : `hand ${f.hand}`;
  return `<h2 class="st-title">Table ${esc(f.code)} · ${esc(f.rules)} · ${state}</h2>
    <ul class="st-watch-seats">${seats}</ul>
    <p>Stock: ${f.stock} · ${piles}</p>
    <ol class="st-watch-log" start="${first}" aria-label="What happened">${log}</ol>`;
}

/** A spectator (the teacher, with the class key): the table's public frames only. */
export function watch(el, opts = {}) {
  const base = opts.base || tablesBase();
  const code = opts.code || decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
  const KEY = `crazylab.watch.${code}`;
  el.innerHTML = `<div class="st-page st-watch">
      <form class="st-watch-form" hidden><label>Teacher key <input name="key" type="password" required autocomplete="off"></label>
        <button class="st-btn st-primary" type="submit">Watch table ${esc(code)}</button></form>
      <section class="st-public" aria-live="polite"></section>
      <p class="st-refused" role="alert"></p><p class="st-conn" role="status"></p></div>`;
  const $ = (q) => el.querySelector(q);
  const st = { ws: null, tries: 0, version: 0, frames: 0 };
  const connect = () => {
    const key = sessionStorage.getItem(KEY);
    if (!key) {
      $(".st-watch-form").hidden = false;
      return;
    }
    const url = new URL(`ws/${encodeURIComponent(code)}`, base);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url.href);
    st.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ hello: { watch: key } }));
    ws.onmessage = (ev) => {
      const f = JSON.parse(ev.data);
      if (f.type === "public") {
        st.tries = 0;
        st.version = f.version;
        $(".st-public").innerHTML = publicHtml(f);
        const log = $(".st-watch-log");
        if (log) log.scrollTop = log.scrollHeight; // the latest moves in view
        $(".st-conn").textContent = "";
        el.querySelector(".st-page").dataset.version = f.version;
      } else if (f.type === "refused" || f.error) $(".st-refused").textContent = f.why || f.error;
    };
    ws.onclose = (ev) => {
      if (st.ws !== ws) return;
      if (ev.code === 4403) {
        sessionStorage.removeItem(KEY);
        $(".st-refused").textContent = ev.reason || "Wrong teacher key.";
        $(".st-watch-form").hidden = false;
        return;
      }
      const wait = BACKOFF[Math.min(st.tries++, BACKOFF.length - 1)];
      $(".st-conn").textContent = `Connection lost: reconnecting in ${Math.round(wait / 100) / 10} s…`;
      setTimeout(connect, wait);
    };
  };
  $(".st-watch-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(KEY, $(".st-watch-form input").value.trim());
    $(".st-watch-form").hidden = true;
    $(".st-refused").textContent = "";
    connect();
  });
  connect();
  return st;
}

/** Start the shared table page inside `el`; `tableModule` is table.js's default export. */
export function start(el, tableModule, opts = {}) {
  if (!opts.code && /\/watch\/[^/]+\/?$/.test(location.pathname)) return watch(el, opts);
  const base = opts.base || tablesBase();
  const code = opts.code || decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
  const st = { base, code, seat: null, version: 0, lobby: null, ws: null, tries: 0, view: null, dispose: null, model: null, closed: false };
  el.innerHTML = `
    <div class="st-page">
      <section class="st-lobby" aria-label="Seats at this table"></section>
      <section class="st-join" hidden>
        <h2>Join table <span class="st-code">${esc(code)}</span></h2>
        <form class="st-join-form"><label>Your name <input name="name" maxlength="40" required autocomplete="nickname"></label>
        <button class="st-btn st-primary" type="submit">Take a seat</button></form></section>
      <div class="st-game"></div>
      <section class="st-review" aria-label="Review of your hand" hidden>
        <button class="st-btn" data-do="review">Review my hand</button>
        <progress class="st-review-busy" hidden aria-label="Reviewing"></progress>
        <div class="st-review-out"></div>
      </section>
      <p class="st-refused" role="alert" aria-live="assertive"></p>
      <p class="st-conn" role="status" aria-live="polite"></p>
    </div>`;
  const $ = (s) => el.querySelector(s);
  const page = $(".st-page");
  const setConn = (text, kind = "") => {
    $(".st-conn").textContent = text;
    $(".st-conn").className = `st-conn ${kind}`;
    page.dataset.conn = kind || "open";
  };
  const refused = (text) => {
    $(".st-refused").textContent = text || "";
    page.dataset.refused = text || "";
  };

  const send = (msg) => {
    if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
      refused("Not connected: reconnecting…");
      return;
    }
    st.ws.send(JSON.stringify({ ...msg, version: st.version }));
  };

  function drawLobby() {
    if (!st.lobby) return;
    $(".st-lobby").innerHTML = lobbyHtml(st);
    page.dataset.started = !!st.lobby.started;
    $(".st-lobby").classList.toggle("st-compact", !!st.lobby.started);
  }

  function mountTable(snapshot) {
    if (st.dispose) st.dispose();
    st.dispose = null;
    const holder = $(".st-game");
    holder.innerHTML = "";
    const box = document.createElement("div");
    holder.appendChild(box);
    st.model = new ModelShim(snapshot, (msg) => {
      refused("");
      send(msg);
    });
    const out = tableModule.render({ model: st.model, el: box });
    st.dispose = () => {
      if (typeof out === "function") out();
      if (st.model) st.model.off();
    };
    page.dataset.table = "on";
  }

  function onFrame(msg) {
    if (msg.error) {
      refused(msg.error);
      if (/token|seat/i.test(msg.error) && !st.seat) showJoin();
      return;
    }
    if (msg.type === "welcome") {
      st.tries = 0;
      st.seat = msg.seat;
      st.version = msg.version ?? st.version;
      if (msg.lobby) st.lobby = msg.lobby;
      page.dataset.seat = msg.seat;
      $(".st-review").hidden = msg.seat === null || msg.seat === undefined;
      setConn("");
      drawLobby();
      if (msg.snapshot && msg.snapshot.view) mountTable(msg.snapshot);
      else if (st.lobby && st.lobby.started) mountTable(null); // the table asks for it (sync)
    } else if (msg.type === "lobby") {
      const was = st.lobby && st.lobby.started;
      st.lobby = { ...(st.lobby || {}), ...msg };
      drawLobby();
      if (msg.started && !was && !st.model) mountTable(null);
    } else if (msg.type === "steps") {
      if (msg.version !== undefined) st.version = msg.version;
      if (!st.model) mountTable(null);
      st.model.emit("msg:custom", msg, []);
    } else if (msg.type === "refused") {
      refused(msg.why || "That move was refused.");
      if (msg.version !== undefined) st.version = msg.version;
      // the table waits for an answer to its action: ask for the present
      if (st.model) send({ action: "sync", seq: null });
    }
  }

  function connect() {
    const seat = loadSeat(code);
    if (!seat) return showJoin();
    const url = new URL(`ws/${encodeURIComponent(code)}`, base);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url.href);
    st.ws = ws;
    setConn(st.tries ? "Reconnecting…" : "Connecting…", "connecting");
    ws.onopen = () => ws.send(JSON.stringify({ hello: { token: seat.token } }));
    ws.onmessage = (ev) => {
      try {
        onFrame(JSON.parse(ev.data));
      } catch (err) {
        console.error("crazylab shared table:", err);
      }
    };
    ws.onclose = (ev) => {
      if (st.ws !== ws || st.closed) return;
      st.ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        // the server does not know this seat: offer to join again (the token stays until a
        // new seat replaces it: a reload asks again)
        setConn(ev.reason || "This seat is not yours any more.", "lost");
        return showJoin();
      }
      const wait = BACKOFF[Math.min(st.tries, BACKOFF.length - 1)];
      st.tries += 1;
      setConn(`Connection lost: reconnecting in ${Math.round(wait / 100) / 10} s…`, "lost");
      setTimeout(connect, wait);
    };
  }

  function showJoin() {
    $(".st-join").hidden = false;
    $(".st-join input").focus();
    hubName(base, [$(".st-join input")]);  // on a hub the seat takes the hub's name
  }

  $(".st-join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $(".st-join input").value.trim();
    try {
      const t = await api(base, "join", { code, name });
      saveSeat(code, { token: t.token, seat: t.seat, name: t.name || name });
      $(".st-join").hidden = true;
      refused("");
      connect();
    } catch (err) {
      refused(err.message);
    }
  });

  // the review of the hand just played: this seat's own, after the hand (the server says
  // so while it is still being played)
  let reviewed = null;
  $(".st-review").addEventListener("click", async (ev) => {
    const step = ev.target.closest(".st-rv-step");
    if (step && reviewed) {
      const d = reviewed.decisions.find((x) => x.ply === Number(step.dataset.ply));
      $(".st-review-position").textContent =
        `Before move ${d.ply + 1}: ${d.top} on top; your hand ${d.hand.join(" ")}.`;
      return;
    }
    if (!ev.target.closest('[data-do="review"]')) return;
    const busy = $(".st-review-busy");
    busy.hidden = false;
    try {
      reviewed = await api(base, "review", { token: loadSeat(code).token });
      $(".st-review-out").innerHTML = reviewHtml(reviewed);
      refused("");
    } catch (err) {
      $(".st-review-out").innerHTML = "";
      refused(err.message);
    } finally {
      busy.hidden = true;
    }
  });

  $(".st-lobby").addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-do]");
    if (!b || b.disabled) return;
    const seat = loadSeat(code);
    try {
      if (b.dataset.do === "start") await api(base, "start", { token: seat.token });
      else if (b.dataset.do === "fill") {
        const level = $("[data-fill-level]").value;
        const kinds = st.lobby.kinds || [];
        for (let s = 0; s < kinds.length; s++) {
          if (kinds[s] === "empty") await api(base, "bot", { token: seat.token, seat: s, level });
        }
      } else if (b.dataset.do === "copy") {
        const link = el.querySelector(".st-link").href;
        await navigator.clipboard.writeText(link).catch(() => {});
        b.textContent = "Copied";
      }
      refused("");
    } catch (err) {
      refused(err.message);
    }
  });
  $(".st-lobby").addEventListener("change", async (ev) => {
    const sel = ev.target.closest("select[data-seat]");
    if (!sel) return;
    try {
      await api(base, "bot", { token: loadSeat(code).token, seat: Number(sel.dataset.seat), level: sel.value || null });
      refused("");
    } catch (err) {
      refused(err.message);
    }
  });
  window.addEventListener("pagehide", () => {
    st.closed = true;
    if (st.ws) st.ws.close();
  });
  window.addEventListener("pageshow", (ev) => {
    if (!ev.persisted) return; // back from the browser's page cache: connect again
    st.closed = false;
    connect();
  });

  connect();
  return st;
}
