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
  root.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-card]");
    if (b) model.send({ action: "pick", card: b.dataset.card });
  });
  const on = () => draw();
  for (const k of ["cards", "tags", "label", "error"]) model.on(`change:${k}`, on);
  draw();
  return () => {
    for (const k of ["cards", "tags", "label", "error"]) model.off(`change:${k}`, on);
  };
}

export default { render };
