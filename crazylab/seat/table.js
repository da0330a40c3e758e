// The crazylab game table (anywidget front end).
// Python sends what the human seat may see: once whole (`snapshot`), then one message per human
// action with what changed after each move ("steps", shown `delay` s apart). Card faces come
// once each and are drawn from `faces`. The browser itself opens and closes the choosers (every
// legal card carries its options), the hint and the four-colour deck, and says why an illegal
// card cannot be played (the reasons come with the hand). No game logic lives here.

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function option(value, label, selected, title = "") {
  return `<option value="${esc(value)}"${selected ? " selected" : ""}${title ? ` title="${esc(title)}"` : ""}>${esc(label)}</option>`;
}

const MAX_LOG = 80;
const ANSWER_MS = 10000; // how long the table waits for Python before it asks again

function settingsHtml(v, model, four) {
  const deck = `<label class="cl-check"><input type="checkbox" data-setting="four_colour"${four ? " checked" : ""}> Four-colour deck</label>`;
  if (v.shared) return deck; // a shared table: its host set the rules and the seats
  const s = v.settings || {};
  const presets = (s.presets || []).map((p) => option(p.name, p.label || p.name, p.name === model.get("preset"), p.description)).join("");
  const opps = (s.opponents || []).map((n) => option(n, `${n}`, n === model.get("opponents"))).join("");
  const levels = (s.levels || []).map((n) => option(n, n, n === model.get("level"))).join("");
  return `
    <label>Rules <select data-setting="preset" aria-label="Rule set">${presets}</select></label>
    <label>Opponents <select data-setting="opponents" aria-label="Number of computer opponents">${opps}</select></label>
    <label>Bots <select data-setting="level" aria-label="Computer opponent level">${levels}</select></label>
    ${deck}`;
}

function opponentsHtml(v, faces) {
  return v.opponents
    .map((o) => {
      const fan = Array.from({ length: Math.min(o.count, 10) }, () => `<span class="cl-back">${faces.back || ""}</span>`).join("");
      const turn = o.to_play ? `<span class="cl-turn">to play</span>` : "";
      const dealer = o.dealer ? ` <span class="cl-dealer" title="dealer">D</span>` : "";
      const hit = o.hit ? `<div class="cl-hit">${esc(o.hit)}</div>` : "";
      return `<div class="cl-opp${o.to_play ? " cl-active" : ""}${o.hit ? " cl-is-hit" : ""}" role="group" aria-label="${esc(o.name)}: ${o.count} card${o.count === 1 ? "" : "s"}${o.to_play ? ", to play" : ""}${o.hit ? ", " + esc(o.hit) : ""}">
        <div class="cl-fan" aria-hidden="true">${fan || "<span class='cl-empty'>no cards</span>"}</div>
        <div class="cl-opp-name">${esc(o.name)}${dealer} · <b>${o.count}</b> card${o.count === 1 ? "" : "s"} ${turn}</div>${hit}
      </div>`;
    })
    .join("");
}

function centreHtml(v, faces) {
  const st = v.stock;
  const stockLabel = `Stock: ${st.count} card${st.count === 1 ? "" : "s"}${st.can_draw ? ". Press to draw" : ""}`;
  // the stock is the mouse's way to draw; the keyboard has the Draw button (D), so the stock
  // is no Tab stop between the top of the page and the hand
  const stock = `<button class="cl-stock${st.can_draw ? " cl-can" : ""}" data-action="move" data-move="draw" tabindex="-1"
      ${st.can_draw ? "" : "disabled"} aria-label="${esc(stockLabel)}" title="${esc(stockLabel)}">
      <span aria-hidden="true">${st.count ? faces.back || "" : "<span class='cl-empty-stock'>empty</span>"}</span>
      <span class="cl-caption">Stock · ${st.count}${st.reshuffles ? ` · reshuffled ${st.reshuffles}×` : ""}</span></button>`;
  const piles = v.piles
    .map(
      (p) => `<div class="cl-pile${p.called ? " cl-called" : ""}" role="group" aria-label="${esc(p.label)}: top card ${esc(p.name)}, ${esc(p.in_force)}">
        <div class="cl-caption">${esc(p.label)} · ${p.count}</div>
        <div class="cl-top" data-suit="${esc(p.suit)}" aria-hidden="true">${faces[p.top] || esc(p.display)}</div>
        <div class="cl-force">${esc(p.in_force)}</div></div>`,
    )
    .join("");
  return stock + piles;
}

function chooserHtml(ch, forced) {
  if (!ch) return "";
  const opts = ch.options
    .map((o, i) => `<button class="cl-opt" data-action="choose" data-index="${o.index}" data-focus="opt-${i}" aria-label="${esc(o.aria)}">${i < 9 ? `<kbd>${i + 1}</kbd> ` : ""}${esc(o.label)}</button>`)
    .join("");
  return `<div class="cl-chooser" role="group" aria-label="${esc(ch.title)}">
      <div class="cl-chooser-title">${esc(ch.title)}</div>
      <div class="cl-opts cl-opts-${ch.options.length > 6 ? "many" : "few"}">${opts}</div>
      ${forced ? "" : `<button class="cl-cancel" data-action="cancel" data-focus="cancel">Cancel <kbd>Esc</kbd></button>`}</div>`;
}

function actionsHtml(v, hintOn) {
  const acts = v.actions
    .map((a) => `<button class="cl-btn cl-primary" data-action="move" data-move="${esc(a.move)}" data-focus="act-${esc(a.move)}" aria-keyshortcuts="${a.key}">${esc(a.label)} <kbd>${a.key.toUpperCase()}</kbd></button>`)
    .join("");
  const newLabel = v.scores.match_over ? "New match" : "New hand";
  // New hand/Restart match only for whoever may deal (at a shared table: its host)
  const deal = v.can_deal === false ? "" : `
    <button class="cl-btn${v.over ? " cl-primary" : ""}" data-action="new_hand" data-focus="new_hand" aria-keyshortcuts="n">${newLabel} <kbd>N</kbd></button>
    <button class="cl-btn cl-quiet" data-action="new_match" data-focus="new_match">Restart match</button>`;
  return `${acts}
    <button class="cl-btn" data-action="hint" data-focus="hint" aria-pressed="${hintOn}" aria-keyshortcuts="h"${v.your_turn ? "" : " disabled"}>Hint <kbd>H</kbd></button>${deal}`;
}

function handHtml(v, faces) {
  if (!v.hand.length) return `<div class="cl-empty">No cards left.</div>`;
  return v.hand
    .map((c, i) => {
      const state = v.your_turn ? (c.legal ? "playable" : "not playable") : "";
      const aria = `${c.label}${state ? ", " + state : ""}`;
      return `<button class="cl-card${c.legal ? " cl-legal" : ""}${v.your_turn ? "" : " cl-waiting"}" data-action="card" data-card="${esc(c.card)}"
          data-suit="${esc(c.suit)}" data-focus="card-${esc(c.card)}" data-pos="${i}" aria-label="${esc(aria)}" title="${esc(c.why || c.display)}">${faces[c.card] || esc(c.display)}</button>`;
    })
    .join("");
}

function hintHtml(v, hintOn) {
  if (!hintOn || !v.hint || !v.hint.legal) return "";
  const li = (h, ok) =>
    `<li class="${ok ? "cl-ok" : "cl-no"}"><b>${esc(h.card)}</b> ${ok ? "✔" : "✘"} ${esc(h.why || (v.hand[h.hand] || {}).why || "")}${ok && h.moves.length > 1 ? ` <span class="cl-moves">(${esc(h.moves.join(", "))})</span>` : ""}</li>`;
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
      <thead><tr><th scope="col">player</th>${sc.hand ? '<th scope="col">hand</th>' : ""}<th scope="col">match</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// the end of a hand: every hand left face up, how it was counted, the scores, the match
function endHtml(end, faces) {
  if (!end) return "";
  const rows = end.hands
    .map((h) => {
      const cards = h.cards.length
        ? h.cards.map((c, i) => `<span class="cl-end-card" data-suit="${esc(c.slice(-1))}" title="${esc(h.shown[i])}">${faces[c] || esc(h.shown[i])}</span>`).join("")
        : "";
      const score = end.kept ? `<td class="cl-end-score">${h.score > 0 ? "+" : ""}${h.score}</td>` : "";
      return `<tr${h.winner ? ' class="cl-end-winner"' : ""}><th scope="row">${esc(h.name)}${h.winner ? ' <span class="cl-end-badge">won</span>' : ""}</th>
        <td><div class="cl-end-cards" role="img" aria-label="${esc(h.shown.join(" ") || "no cards")}">${cards}</div><div class="cl-end-count">${esc(h.counted)}</div></td>${score}</tr>`;
    })
    .join("");
  return `<section class="cl-end" aria-label="End of the hand">
    <h3 class="cl-end-title">The end of the hand: every hand left, and how it counts</h3>
    <table class="cl-end-table"><thead><tr><th scope="col">player</th><th scope="col">cards left</th>${end.kept ? '<th scope="col">scores</th>' : ""}</tr></thead><tbody>${rows}</tbody></table>
    ${end.how ? `<p class="cl-end-how">${esc(end.how)}</p>` : ""}
    <p class="cl-end-match">${esc(end.match)}</p></section>`;
}

function waitText(v) {
  const name = v.names[v.to_play];
  if (v.to_play === (v.seat || 0) || name === "You") return "Wait: the table is still answering your last move.";
  return `Wait: it is ${name}'s turn.`;
}

function logItems(lines) {
  return lines.map((l) => `<li>${esc(l)}</li>`).join("");
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
  // the first Tab stop of the table is the skip link, the next one a card of the hand: the
  // settings are under the table and the buttons under the hand
  root.innerHTML = `
    <a class="cl-skip" href="#" data-action="skip">Skip to your hand</a>
    <div class="cl-bar"><div class="cl-title"></div></div>
    <div class="cl-main">
      <div class="cl-board" role="region" aria-label="Card table">
        <div class="cl-opponents"></div>
        <div class="cl-centre"></div>
        <div class="cl-status" role="status" aria-live="polite" aria-atomic="false" aria-relevant="additions text">
          <ol class="cl-news" aria-label="What just happened"></ol><p class="cl-prompt"></p></div>
        <ul class="cl-pending" aria-label="Hits to resolve"></ul>
        <div class="cl-end-slot"></div>
        <div class="cl-chooser-slot"></div>
        <div class="cl-hand-label"></div>
        <div class="cl-hand" role="group" aria-label="Your hand"></div>
        <div class="cl-actions"></div>
        <div class="cl-hint-slot"></div>
      </div>
      <aside class="cl-side" aria-label="Scores and moves">
        <div class="cl-score-slot"></div>
        <details class="cl-sheet"><summary>Rules sheet</summary><div class="cl-sheet-body"></div></details>
        <div class="cl-log" role="log" aria-label="Move log" tabindex="0"><ol class="cl-log-list"></ol></div>
      </aside>
    </div>
    <div class="cl-settings" role="group" aria-label="Table settings"></div>
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
  const v = {};
  const faces = {};
  const queue = [];
  let stepTimer = null;
  let stepDelay = 0;
  let hintOn = !!model.get("show_hint");
  let four = !!model.get("four_colour");
  let chooser = null; // {node, forced}: the open chooser, walked here without the kernel
  let note = null; // {text, kind}: a message of the browser's own (why a card cannot be played)
  let focusPos = null; // where in the hand the keyboard should come back to
  let botAsked = null;

  const reportJs = (err) => {
    console.error("crazylab table:", err);
    jsErrors.push(`Browser: ${err && err.message ? err.message : err}\n\n${(err && err.stack) || ""}`);
    drawErrors();
  };
  let awaiting = false; // an action is on its way to the kernel: not the human's turn to act
  // The browser never waits for ever: with no answer after ANSWER_MS it asks for the present
  // (a sync is always answered); with none after that either it says so and lets go.
  let answerTimer = null;
  const stopWaiting = () => {
    clearTimeout(answerTimer);
    answerTimer = null;
  };
  const noAnswer = (asked) => {
    if (!asked) {
      say("Still waiting for the table's Python…", "warn");
      model.send({ action: "sync", seq: v.seq });
      answerTimer = setTimeout(() => noAnswer(true), ANSWER_MS);
      return;
    }
    stopWaiting();
    awaiting = false;
    jsErrors.push(`No answer from the table's Python in ${(2 * ANSWER_MS) / 1000} s: try again, or reload the page.`);
    drawErrors();
    draw();
  };
  const send = (msg) => {
    awaiting = true;
    root.classList.add("cl-busy");
    root.dataset.yourTurn = "false";
    stopWaiting();
    answerTimer = setTimeout(() => noAnswer(false), ANSWER_MS);
    model.send(msg);
  };
  const say = (text, kind) => {
    note = { text, kind };
    draw();
  };

  function apply(patch) {
    const { faces: newFaces, log_add: added, unset, ...rest } = patch;
    for (const key of unset || []) rest[key] = null; // Python's None (Pyodide drops nulls)
    if (newFaces) Object.assign(faces, newFaces);
    const handBefore = v.hand_id;
    Object.assign(v, rest);
    const list = $(".cl-log-list");
    if (rest.log) {
      list.innerHTML = logItems(rest.log); // a new hand: the log starts again
    } else if (added && added.length) {
      list.insertAdjacentHTML("beforeend", logItems(added)); // the log appends
      while (list.children.length > MAX_LOG) list.firstElementChild.remove();
    }
    if (rest.log || (added && added.length)) $(".cl-log").scrollTop = $(".cl-log").scrollHeight;
    if ("seq" in rest) note = null;
    if ("four_colour" in rest) four = !!rest.four_colour;
    if (handBefore !== v.hand_id || !v.your_turn) chooser = null;
  }

  function pump() {
    if (stepTimer) return;
    const next = queue.shift();
    if (!next) return;
    apply(next);
    draw();
    if (queue.length) {
      stepTimer = setTimeout(() => {
        stepTimer = null;
        pump();
      }, stepDelay * 1000);
    }
  }

  function onMessage(msg) {
    try {
      if (!msg || msg.type !== "steps") return;
      awaiting = false;
      stopWaiting();
      stepDelay = Number(msg.delay) || 0;
      queue.push(...msg.steps);
      pump();
    } catch (err) {
      reportJs(err);
    }
  }

  function drawErrors() {
    const box = $(".cl-errors");
    box.innerHTML = errorHtml(model.get("error"), jsErrors);
    box.style.display = box.innerHTML ? "" : "none";
  }

  function draw() {
    try {
      if (!v.hand) return;
      const active = root.contains(document.activeElement) ? document.activeElement : null;
      const focusKey = active && active.dataset ? active.dataset.focus : null;
      if (active && active.dataset && active.dataset.pos !== undefined) focusPos = Number(active.dataset.pos);
      if (!chooser && v.forced) chooser = { node: v.forced, forced: true };

      root.dataset.seq = v.seq;
      root.dataset.over = v.over;
      root.dataset.yourTurn = v.your_turn && !queue.length && !awaiting;
      root.dataset.chooser = chooser ? chooser.node.kind : "";
      if (!queue.length && !awaiting) root.classList.remove("cl-busy");
      root.classList.toggle("cl-four", four);
      setHtml(".cl-title", `<h2 class="cl-name">${esc(v.title || v.rules)}</h2> <span class="cl-desc">${esc(v.description)}</span>`);
      setHtml(".cl-sheet-body", v.sheet || "");
      setHtml(".cl-settings", settingsHtml(v, model, four));
      setHtml(".cl-opponents", opponentsHtml(v, faces));
      setHtml(".cl-centre", centreHtml(v, faces));
      // the status: what happened since your last move, kept until you move again (a list
      // that only grows, so a screen reader reads each new line once), then what to do now
      const news = v.news || [];
      const list = $(".cl-news");
      while (list.children.length > news.length) list.lastElementChild.remove();
      news.forEach((line, i) => {
        const li = list.children[i];
        if (!li) {
          const item = document.createElement("li");
          item.textContent = line;
          list.appendChild(item);
        } else if (li.textContent !== line) li.textContent = line;
      });
      list.style.display = news.length ? "" : "none";
      const prompt = $(".cl-prompt");
      const text = note ? note.text : v.message;
      if (prompt.textContent !== text) prompt.textContent = text;
      const kind = note ? note.kind : v.message_kind;
      $(".cl-status").className = `cl-status cl-${kind}`;
      setHtml(".cl-end-slot", endHtml(v.end, faces));
      setHtml(".cl-pending", (v.pending || [])
        .map((p) => `<li class="${p.now ? "cl-now" : ""}${p.you ? " cl-you" : ""}">${esc(p.text)}</li>`)
        .join(""));
      $(".cl-pending").style.display = v.pending && v.pending.length ? "" : "none";
      setHtml(".cl-chooser-slot", chooserHtml(chooser && chooser.node, chooser && chooser.forced));
      setHtml(".cl-actions", actionsHtml(v, hintOn));
      $(".cl-hand-label").textContent = `${v.shared ? `${v.names[v.seat]}: ` : ""}Your hand · ${v.hand_size} card${v.hand_size === 1 ? "" : "s"}${v.your_turn ? " — your turn" : ""}`;
      setHtml(".cl-hand", handHtml(v, faces));
      setHtml(".cl-hint-slot", hintHtml(v, hintOn));
      setHtml(".cl-score-slot", scoresHtml(v));
      drawErrors();

      // keep the keyboard in the hand: on the chooser when one is open, else where it was, else
      // on the card at the same place (the card played is gone)
      let target = null;
      if (chooser) target = root.querySelector('[data-focus="opt-0"]');
      else if (focusKey && !focusKey.startsWith("opt-")) target = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (!target && focusPos !== null && (active || !root.contains(document.activeElement))) {
        const cards = root.querySelectorAll(".cl-card");
        if (cards.length) target = cards[Math.min(focusPos, cards.length - 1)];
        else target = root.querySelector(".cl-actions .cl-primary");
      }
      const lost = !document.activeElement || document.activeElement === document.body || document.activeElement === root;
      if (target && target !== document.activeElement && (active || chooser || (lost && focusPos !== null))) target.focus();

      // a computer opponent is to move first (a new match): ask for its moves once
      if (v.bot && !queue.length && v.bot.token !== botAsked) {
        botAsked = v.bot.token;
        send({ action: "bots" });
      }
    } catch (err) {
      reportJs(err);
    }
  }

  function clickCard(node) {
    focusPos = Number(node.dataset.pos);
    const c = v.hand.find((h) => h.card === node.dataset.card);
    if (!c) return;
    if (v.over) return say("The hand is over: press New hand to deal again.", "warn");
    if (!v.your_turn || queue.length || awaiting) return say(waitText(v), "warn");
    if (!c.legal) return say(c.why || `${c.display} cannot be played now.`, "warn");
    const tree = v.choosers && v.choosers[c.card];
    if (tree) {
      chooser = { node: tree, forced: false };
      note = null;
      return draw();
    }
    chooser = null;
    send({ action: "move", move: c.move });
  }

  function choose(index) {
    const opt = chooser && chooser.node.options[index];
    if (!opt) return;
    if (opt.move) {
      chooser = null;
      send({ action: "move", move: opt.move });
      draw(); // the chooser closes now; the keyboard goes back to the hand
    } else {
      chooser = { node: opt.next, forced: chooser.forced };
      draw();
    }
  }

  function act(node) {
    const a = node.dataset.action;
    if (a === "skip") {
      const first = root.querySelector(".cl-opt") || root.querySelector(".cl-card") || root.querySelector(".cl-actions .cl-btn");
      if (first) first.focus();
    } else if (a === "card") clickCard(node);
    else if (a === "move") {
      if (!v.your_turn || queue.length || awaiting) return say(waitText(v), "warn");
      send({ action: "move", move: node.dataset.move });
    } else if (a === "choose") choose(Number(node.dataset.index));
    else if (a === "cancel") {
      chooser = null;
      draw();
    } else if (a === "hint") {
      hintOn = !hintOn;
      draw();
    } else if (a === "clear_error") {
      jsErrors.length = 0;
      model.send({ action: "clear_error" }); // no answer but the error trait
      drawErrors();
    } else send({ action: a });
  }

  root.addEventListener("click", (ev) => {
    try {
      const node = ev.target.closest("[data-action]");
      if (!node || !root.contains(node) || node.disabled) return;
      if (node.tagName === "A") ev.preventDefault(); // the skip link moves the focus, not the page
      act(node);
    } catch (err) {
      reportJs(err);
    }
  });
  root.addEventListener("change", (ev) => {
    try {
      const key = ev.target.dataset.setting;
      if (!key) return;
      if (key === "four_colour") {
        four = ev.target.checked; // the browser's own: CSS recolours clubs and diamonds
        draw();
        return;
      }
      model.set(key, key === "opponents" ? Number(ev.target.value) : ev.target.value);
      model.save_changes();
    } catch (err) {
      reportJs(err);
    }
  });
  root.addEventListener("keydown", (ev) => {
    try {
      const tag = (ev.target.tagName || "").toLowerCase();
      if (tag === "select" || tag === "input" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (ev.key === "ArrowLeft" || ev.key === "ArrowRight") {
        const cards = [...root.querySelectorAll(".cl-card")];
        const i = cards.indexOf(document.activeElement);
        if (i >= 0) {
          const j = (i + (ev.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
          cards[j].focus();
          focusPos = j;
          ev.preventDefault();
        }
        return;
      }
      if (ev.key === "Escape" && chooser && !chooser.forced) {
        chooser = null;
        draw();
        return;
      }
      if (chooser && /^[1-9]$/.test(ev.key)) {
        ev.preventDefault();
        return choose(Number(ev.key) - 1);
      }
      const k = ev.key.toLowerCase();
      const map = { d: '[data-move="draw"].cl-btn', p: '[data-move="pass"]', e: '[data-move="end"]', h: '[data-action="hint"]', n: '[data-action="new_hand"]' };
      if (map[k]) {
        const b = root.querySelector(map[k]);
        if (b && !b.disabled) {
          ev.preventDefault();
          act(b);
        }
      }
    } catch (err) {
      reportJs(err);
    }
  });

  const onErr = () => drawErrors();
  model.on("msg:custom", onMessage);
  model.on("change:error", onErr);
  const snap = model.get("snapshot") || {};
  if (snap.view) {
    apply({ ...snap.view, faces: snap.faces, log: snap.view.log });
    draw();
  }
  model.send({ action: "sync", seq: snap.view ? snap.view.seq : null });
  return () => {
    clearTimeout(stepTimer);
    stopWaiting();
    model.off("msg:custom", onMessage);
    model.off("change:error", onErr);
  };
}

export default { render };
