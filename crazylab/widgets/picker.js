// A clickable grid of card faces (crazylab CardPicker).
const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "clp-picker";
  el.appendChild(root);

  function draw() {
    try {
      const tags = model.get("tags") || {};
      const cards = model.get("cards") || [];
      const err = model.get("error");
      root.innerHTML =
        `<div class="clp-label">${esc(model.get("label"))}</div><div class="clp-grid" role="group" aria-label="${esc(model.get("label"))}">` +
        cards
          .map((c) => {
            const tag = tags[c.card];
            const aria = `${c.label}${tag ? ", " + tag : ""}`;
            return `<button class="clp-card${tag ? " clp-tagged" : ""}" data-card="${esc(c.card)}" aria-label="${esc(aria)}" aria-pressed="${!!tag}" title="${esc(aria)}">${c.svg}<span class="clp-tag">${esc(tag || "")}</span></button>`;
          })
          .join("") +
        `</div>` +
        (err ? `<div class="clp-error" role="alert"><b>Something went wrong.</b> ${esc(err.split("\n\n")[0])}</div>` : "");
    } catch (e) {
      console.error("crazylab picker:", e);
      root.textContent = `Something went wrong in the card picker: ${e.message}`;
    }
  }
  // A click is a request the kernel answers ({type: "answer", id}); unanswered, it is sent
  // again once, then the picker says so (never a click that silently does nothing).
  const status = document.createElement("div");
  status.className = "clp-status";
  status.setAttribute("role", "status");
  status.hidden = true;
  el.appendChild(status);
  const pending = new Map();  // id -> {timer, label, lost}
  function waitMs() {
    return Math.max(0.2, Number(model.get("answer_timeout")) || 10) * 1000;
  }
  function report() {
    if (!pending.size) {
      status.hidden = true;
      status.textContent = "";
      root.removeAttribute("aria-busy");
      return;
    }
    const lost = [...pending.values()].filter((p) => p.lost).map((p) => p.label);
    root.setAttribute("aria-busy", "true");
    status.hidden = !lost.length;
    status.textContent = lost.length
      ? `The server has not answered your click on ${lost.join(", ")}. It may be very busy: ` +
        "wait a moment, or reload the page."
      : "";
  }
  function ask(id, card, label, tries) {
    model.send({ action: "pick", card, id });
    const timer = setTimeout(() => {
      if (!pending.has(id)) return;
      if (tries < 2) {
        console.warn(`crazylab picker: no answer to the click on ${card} in ${waitMs() / 1000} s; asking again`);
        ask(id, card, label, tries + 1);
      } else {
        pending.get(id).lost = true;
        console.warn(`crazylab picker: no answer to the click on ${card}`);
        report();
      }
    }, waitMs());
    pending.set(id, { timer, label, lost: false });
    report();
  }
  let counter = 0;
  const session = Math.random().toString(36).slice(2, 8);
  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-card]");
    if (b) ask(`${session}-${++counter}`, b.dataset.card, b.getAttribute("aria-label") || b.dataset.card, 1);
  });
  const onMessage = (msg) => {
    if (!msg || msg.type !== "answer" || !pending.has(msg.id)) return;
    clearTimeout(pending.get(msg.id).timer);
    pending.delete(msg.id);
    report();
  };
  model.on("msg:custom", onMessage);
  const on = () => draw();
  for (const k of ["cards", "tags", "label", "error"]) model.on(`change:${k}`, on);
  draw();
  return () => {
    for (const k of ["cards", "tags", "label", "error"]) model.off(`change:${k}`, on);
    model.off("msg:custom", onMessage);
    for (const p of pending.values()) clearTimeout(p.timer);
  };
}

export default { render };
