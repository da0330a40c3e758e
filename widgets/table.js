// The crazylab game table (anywidget front end).
// Python sends one trait, `view`, holding only what the human seat may see; this file draws it
// and sends the human's actions back as messages. No game logic lives here.

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function option(value, label, selected, title = "") {
  return `<option value="${esc(value)}"${selected ? " selected" : ""}${title ? ` title="${esc(title)}"` : ""}>${esc(label)}</option>`;
}

function settingsHtml(v, model) {
  const s = v.settings || {};
  const presets = (s.presets || []).map((p) => option(p.name, p.name, p.name === model.get("preset"), p.description)).join("");
  const opps = (s.opponents || []).map((n) => option(n, `${n}`, n === model.get("opponents"))).join("");
  const levels = (s.levels || []).map((n) => option(n, n, n === model.get("level"))).join("");
  return `
    <label>Rules <select data-setting="preset" aria-label="Rule set">${presets}</select></label>
    <label>Opponents <select data-setting="opponents" aria-label="Number of computer opponents">${opps}</select></label>
    <label>Bots <select data-setting="level" aria-label="Computer opponent level">${levels}</select></label>
    <label class="cl-check"><input type="checkbox" data-setting="four_colour"${model.get("four_colour") ? " checked" : ""}> Four-colour deck</label>`;
}

function opponentsHtml(v) {
  return v.opponents
    .map((o) => {
      const fan = Array.from({ length: Math.min(o.count, 10) }, () => `<span class="cl-back">${v.back_svg}</span>`).join("");
      const turn = o.to_play ? `<span class="cl-turn">${v.bot ? "thinking…" : "to play"}</span>` : "";
      const dealer = o.dealer ? ` <span class="cl-dealer" title="dealer">D</span>` : "";
      const hit = o.hit ? `<div class="cl-hit">${esc(o.hit)}</div>` : "";
      return `<div class="cl-opp${o.to_play ? " cl-active" : ""}${o.hit ? " cl-is-hit" : ""}" role="group" aria-label="${esc(o.name)}: ${o.count} card${o.count === 1 ? "" : "s"}${o.to_play ? ", to play" : ""}${o.hit ? ", " + esc(o.hit) : ""}">
        <div class="cl-fan" aria-hidden="true">${fan || "<span class='cl-empty'>no cards</span>"}</div>
        <div class="cl-opp-name">${esc(o.name)}${dealer} · <b>${o.count}</b> card${o.count === 1 ? "" : "s"} ${turn}</div>${hit}
      </div>`;
    })
    .join("");
}

function centreHtml(v) {
  const st = v.stock;
  const stockLabel = `Stock: ${st.count} card${st.count === 1 ? "" : "s"}${st.can_draw ? ". Press to draw" : ""}`;
  const stock = `<button class="cl-stock${st.can_draw ? " cl-can" : ""}" data-action="move" data-move="draw"
      ${st.can_draw ? "" : "disabled"} aria-label="${esc(stockLabel)}" title="${esc(stockLabel)}">
      <span aria-hidden="true">${st.count ? st.svg : "<span class='cl-empty-stock'>empty</span>"}</span>
      <span class="cl-caption">Stock · ${st.count}${st.reshuffles ? ` · reshuffled ${st.reshuffles}×` : ""}</span></button>`;
  const piles = v.piles
    .map(
      (p) => `<div class="cl-pile${p.called ? " cl-called" : ""}" role="group" aria-label="${esc(p.label)}: top card ${esc(p.name)}, ${esc(p.in_force)}">
        <div class="cl-caption">${esc(p.label)} · ${p.count}</div>
        <div class="cl-top" aria-hidden="true">${p.svg}</div>
        <div class="cl-force">${esc(p.in_force)}</div></div>`,
    )
    .join("");
  return stock + piles;
}

function chooserHtml(ch) {
  if (!ch) return "";
  const opts = ch.options
    .map((o, i) => `<button class="cl-opt" data-action="choose" data-index="${o.index}" data-focus="opt-${i}" aria-label="${esc(o.aria)}">${i < 9 ? `<kbd>${i + 1}</kbd> ` : ""}${esc(o.label)}</button>`)
    .join("");
  return `<div class="cl-chooser" role="group" aria-label="${esc(ch.title)}">
      <div class="cl-chooser-title">${esc(ch.title)}</div>
      <div class="cl-opts cl-opts-${ch.options.length > 6 ? "many" : "few"}">${opts}</div>
      ${ch.forced ? "" : `<button class="cl-cancel" data-action="cancel" data-focus="cancel">Cancel <kbd>Esc</kbd></button>`}</div>`;
}

function actionsHtml(v, model) {
  const acts = v.actions
    .map((a) => `<button class="cl-btn cl-primary" data-action="move" data-move="${esc(a.move)}" data-focus="act-${esc(a.move)}" aria-keyshortcuts="${a.key}">${esc(a.label)} <kbd>${a.key.toUpperCase()}</kbd></button>`)
    .join("");
  const hintOn = model.get("show_hint");
  const newLabel = v.scores.match_over ? "New match" : "New hand";
  return `${acts}
    <button class="cl-btn" data-action="hint" data-focus="hint" aria-pressed="${hintOn}" aria-keyshortcuts="h"${v.your_turn ? "" : " disabled"}>Hint <kbd>H</kbd></button>
    <button class="cl-btn${v.over ? " cl-primary" : ""}" data-action="new_hand" data-focus="new_hand" aria-keyshortcuts="n">${newLabel} <kbd>N</kbd></button>
    <button class="cl-btn cl-quiet" data-action="new_match" data-focus="new_match">Restart match</button>`;
}

function handHtml(v) {
  if (!v.hand.length) return `<div class="cl-empty">No cards left.</div>`;
  return v.hand
    .map((c, i) => {
      const state = v.your_turn ? (c.legal ? "playable" : "not playable") : "";
      const aria = `${c.label}${state ? ", " + state : ""}`;
      return `<button class="cl-card${c.legal ? " cl-legal" : ""}${v.your_turn ? "" : " cl-waiting"}" data-action="card" data-card="${esc(c.card)}"
          data-focus="card-${esc(c.card)}" data-pos="${i}" aria-label="${esc(aria)}" title="${esc(c.why || c.display)}">${c.svg}</button>`;
    })
    .join("");
}

function hintHtml(v, model) {
  if (!model.get("show_hint") || !v.hint || !v.hint.legal) return "";
  const li = (h, ok) =>
    `<li class="${ok ? "cl-ok" : "cl-no"}"><b>${esc(h.card)}</b> ${ok ? "✔" : "✘"} ${esc(h.why)}${ok && h.moves.length > 1 ? ` <span class="cl-moves">(${esc(h.moves.join(", "))})</span>` : ""}</li>`;
  const legal = v.hint.legal.map((h) => li(h, true)).join("");
  const other = v.hint.other.map((h) => li(h, false)).join("");
  const none = v.hint.legal.length ? "" : "<li>No card of yours can be played now.</li>";
  return `<div class="cl-hint" role="region" aria-label="Hint"><b>Hint.</b><ul>${legal}${none}${other}</ul></div>`;
}

function scoresHtml(v) {
  const sc = v.scores;
  const rows = v.names
    .map((n, s) => {
      const hand = sc.hand ? `<td>${sc.hand[s] > 0 ? "+" : ""}${sc.hand[s]}</td>` : "";
      return `<tr${s === v.to_play && !v.over ? " class='cl-active'" : ""}><th scope="row">${esc(n)}</th>${hand}<td>${sc.match[s]}</td></tr>`;
    })
    .join("");
  if (!sc.kept) return `<p class="cl-noscore">This rule set keeps no score: the first player out wins the round. Rounds played: ${sc.hands_played}.</p>`;
  const target = sc.target ? `first to ${sc.target}` : "running total";
  return `<table class="cl-scores" aria-label="Scores"><caption>Scores (${target}; hands played: ${sc.hands_played})</caption>
      <thead><tr><th></th>${sc.hand ? "<th>hand</th>" : ""}<th>match</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function logHtml(v) {
  return `<ol class="cl-log-list">${v.log.map((l) => `<li>${esc(l)}</li>`).join("")}</ol>`;
}

function errorHtml(text, jsErrors) {
  const all = [text, ...jsErrors].filter(Boolean);
  if (!all.length) return "";
  return all
    .map((t) => {
      const [head, ...rest] = String(t).split("\n\n");
      return `<div class="cl-error-item"><b>Something went wrong.</b> ${esc(head)}
        ${rest.length ? `<details><summary>Details</summary><pre>${esc(rest.join("\n\n"))}</pre></details>` : ""}</div>`;
    })
    .join("") + `<button class="cl-btn cl-quiet" data-action="clear_error">Dismiss</button>`;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "cl-table";
  root.tabIndex = -1;
  el.appendChild(root);
  root.innerHTML = `
    <div class="cl-bar"><div class="cl-title"></div><div class="cl-settings"></div></div>
    <div class="cl-main">
      <div class="cl-board">
        <div class="cl-opponents"></div>
        <div class="cl-centre"></div>
        <div class="cl-status" role="status" aria-live="polite"></div>
        <ul class="cl-pending" aria-label="Pending penalties"></ul>
        <div class="cl-chooser-slot"></div>
        <div class="cl-actions"></div>
        <div class="cl-hand-label"></div>
        <div class="cl-hand" role="group" aria-label="Your hand"></div>
        <div class="cl-hint-slot"></div>
      </div>
      <aside class="cl-side">
        <div class="cl-score-slot"></div>
        <div class="cl-log" role="log" aria-label="Move log" tabindex="0"></div>
      </aside>
    </div>
    <div class="cl-errors" role="alert"></div>`;
  const $ = (sel) => root.querySelector(sel);
  const shown = new Map();
  // replace a part of the table only when its HTML changed (keeps open menus and focus)
  const setHtml = (sel, html) => {
    if (shown.get(sel) === html) return false;
    shown.set(sel, html);
    $(sel).innerHTML = html;
    return true;
  };
  const jsErrors = [];
  let botTimer = null;
  let botToken = null;

  const reportJs = (err) => {
    console.error("crazylab table:", err);
    jsErrors.push(`Browser: ${err && err.message ? err.message : err}\n\n${(err && err.stack) || ""}`);
    drawErrors();
  };
  const send = (msg) => {
    root.classList.add("cl-busy");
    model.send(msg);
  };

  function drawErrors() {
    const box = $(".cl-errors");
    box.innerHTML = errorHtml(model.get("error"), jsErrors);
    box.style.display = box.innerHTML ? "" : "none";
  }

  function draw() {
    try {
      const v = model.get("view");
      if (!v || !v.hand) return;
      const active = root.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = active && active.dataset ? active.dataset.focus : null;
      const focusPos = active && active.dataset ? active.dataset.pos : null;

      root.dataset.seq = v.seq;
      root.dataset.over = v.over;
      root.dataset.yourTurn = v.your_turn;
      root.classList.remove("cl-busy");
      root.classList.toggle("cl-four", !!model.get("four_colour"));
      setHtml(".cl-title", `<b>${esc(v.rules)}</b> <span class="cl-desc">${esc(v.description)}</span>`);
      setHtml(".cl-settings", settingsHtml(v, model));
      setHtml(".cl-opponents", opponentsHtml(v));
      setHtml(".cl-centre", centreHtml(v));
      const status = $(".cl-status");
      status.textContent = v.message;
      status.className = `cl-status cl-${v.message_kind}`;
      $(".cl-pending").innerHTML = (v.pending || [])
        .map((p) => `<li class="${p.now ? "cl-now" : ""}${p.you ? " cl-you" : ""}">${esc(p.text)}</li>`)
        .join("");
      $(".cl-pending").style.display = v.pending && v.pending.length ? "" : "none";
      setHtml(".cl-chooser-slot", chooserHtml(v.chooser));
      setHtml(".cl-actions", actionsHtml(v, model));
      $(".cl-hand-label").textContent = `Your hand · ${v.hand_size} card${v.hand_size === 1 ? "" : "s"}${v.your_turn ? " — your turn" : ""}`;
      setHtml(".cl-hand", handHtml(v));
      setHtml(".cl-hint-slot", hintHtml(v, model));
      setHtml(".cl-score-slot", scoresHtml(v));
      if (setHtml(".cl-log", logHtml(v))) $(".cl-log").scrollTop = $(".cl-log").scrollHeight;
      drawErrors();

      // keep the keyboard where it was
      let target = null;
      if (v.chooser) target = root.querySelector('[data-focus="opt-0"]');
      else if (focusKey) target = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (!target && focusPos !== null && focusPos !== undefined) {
        const cards = root.querySelectorAll(".cl-card");
        if (cards.length) target = cards[Math.min(Number(focusPos), cards.length - 1)];
      }
      if (target && target !== document.activeElement && (active || v.chooser)) target.focus();
      else if (active && !root.contains(document.activeElement)) root.focus();

      // computer opponents move after a visible pause
      if (v.bot && v.bot.token !== botToken) {
        botToken = v.bot.token;
        clearTimeout(botTimer);
        const token = v.bot.token;
        botTimer = setTimeout(() => send({ action: "bot", token }), Math.max(0, model.get("delay") * 1000));
      }
    } catch (err) {
      reportJs(err);
    }
  }

  function act(node) {
    const a = node.dataset.action;
    if (a === "card") send({ action: "card", card: node.dataset.card });
    else if (a === "move") send({ action: "move", move: node.dataset.move });
    else if (a === "choose") send({ action: "choose", index: Number(node.dataset.index) });
    else if (a === "hint") {
      model.set("show_hint", !model.get("show_hint"));
      model.save_changes();
    } else if (a === "clear_error") {
      jsErrors.length = 0;
      send({ action: "clear_error" });
      drawErrors();
    } else send({ action: a });
  }

  root.addEventListener("click", (ev) => {
    try {
      const node = ev.target.closest("[data-action]");
      if (!node || !root.contains(node) || node.disabled) return;
      act(node);
    } catch (err) {
      reportJs(err);
    }
  });
  root.addEventListener("change", (ev) => {
    try {
      const key = ev.target.dataset.setting;
      if (!key) return;
      const value = key === "four_colour" ? ev.target.checked : key === "opponents" ? Number(ev.target.value) : ev.target.value;
      model.set(key, value);
      model.save_changes();
    } catch (err) {
      reportJs(err);
    }
  });
  root.addEventListener("keydown", (ev) => {
    try {
      const tag = (ev.target.tagName || "").toLowerCase();
      if (tag === "select" || tag === "input" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const v = model.get("view");
      if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        const cards = [...root.querySelectorAll(".cl-card")];
        const i = cards.indexOf(document.activeElement);
        if (i >= 0) {
          const j = (i + (ev.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
          cards[j].focus();
          ev.preventDefault();
        }
        return;
      }
      if (ev.key === "Escape" && v.chooser && !v.chooser.forced) return void send({ action: "cancel" });
      if (v.chooser && /^[1-9]$/.test(ev.key)) {
        const opt = root.querySelector(`.cl-opt[data-index="${Number(ev.key) - 1}"]`);
        if (opt) return void act(opt);
      }
      const k = ev.key.toLowerCase();
      const button = (sel) => root.querySelector(sel);
      const map = { d: '[data-move="draw"].cl-btn', p: '[data-move="pass"]', e: '[data-move="end"]', h: '[data-action="hint"]', n: '[data-action="new_hand"]' };
      if (map[k]) {
        const b = button(map[k]);
        if (b && !b.disabled) {
          ev.preventDefault();
          act(b);
        }
      }
    } catch (err) {
      reportJs(err);
    }
  });

  const onView = () => draw();
  const onErr = () => drawErrors();
  model.on("change:view", onView);
  model.on("change:show_hint", onView);
  model.on("change:error", onErr);
  draw();
  return () => {
    clearTimeout(botTimer);
    model.off("change:view", onView);
    model.off("change:show_hint", onView);
    model.off("change:error", onErr);
  };
}

export default { render };
