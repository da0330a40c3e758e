// The worked-example explainer's list and keys (crazylab StepExplainer / ExamplePicker).
// - a <select> with one <optgroup> per rule set and topic;
// - ← → Home End pressed inside the explainer (or anywhere on the explain page when nothing
//   else has the focus) are sent to Python, which steps;
// - on the explain page, the page's address is sent to Python once (the static site's kernel
//   runs in a web worker and cannot read it), and kept in step with what is shown.
// - predict mode: the answers are ipywidgets buttons (Tab, Enter / Space); after a click
//   redraws them, the focus returns to the explainer so that the keys go on working.
// 1 to 9 answer the open prediction (predict mode: the n-th answer button); Python ignores
// them when nothing is asked.
const KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End",
                      "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
let counter = 0;

function typing(target) {
  if (!target || !target.closest) return false;
  if (target.isContentEditable) return true;
  return !!target.closest(
    "input, textarea, select, [contenteditable], [role='slider'], .noUi-handle, .widget-readout");
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "cl-ex-nav";
  const id = `cl-ex-select-${++counter}-${Math.random().toString(36).slice(2, 7)}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.className = "cl-ex-label";
  const select = document.createElement("select");
  select.id = id;
  select.className = "cl-ex-select";
  root.append(label, select);
  el.appendChild(root);

  function fill() {
    try {
      label.textContent = model.get("label");
      select.textContent = "";
      for (const g of model.get("groups") || []) {
        const group = document.createElement("optgroup");
        group.label = g.label;
        for (const o of g.options) {
          const option = document.createElement("option");
          option.value = o.value;
          option.textContent = o.label;
          group.appendChild(option);
        }
        select.appendChild(group);
      }
      select.value = model.get("value");
    } catch (e) {
      console.error("crazylab explainer:", e);
    }
  }
  const onValue = () => { select.value = model.get("value"); };
  select.addEventListener("change", () => {
    model.set("value", select.value);
    model.save_changes();
  });

  // the explainer around this list: focusable, so that a click in it gives it the keys
  let box = null;
  let tries = 0;
  function findBox() {
    box = el.closest(".crazylab-explainer");
    if (box) {
      if (!box.hasAttribute("tabindex")) box.tabIndex = 0;
      box.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Home End 1 2 3 4 5 6 7 8 9");
      if (!box.getAttribute("aria-label")) {
        box.setAttribute("aria-label", "Worked example: ← and → step through it");
      }
    } else if (++tries < 200) {
      requestAnimationFrame(findBox);
    }
  }
  findBox();

  function onKey(ev) {
    if (!KEYS.has(ev.key) || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    if (ev.defaultPrevented || !box || !box.isConnected) return;
    const target = ev.target;
    const inside = box.contains(target);
    const nowhere = target === document.body || target === document.documentElement;
    if (!inside && !(nowhere && model.get("follow_address"))) return;
    if (typing(target)) return;
    ev.preventDefault();
    model.send({ kind: "key", key: ev.key });
  }
  document.addEventListener("keydown", onKey);

  // an answer button that had the focus is redrawn away: give the focus back to the
  // explainer (not the page's body), so that the keys still step and answer
  function onFocusOut(ev) {
    const gone = ev.target;
    if (!box || !gone || !gone.closest || !gone.closest(".cl-predict")) return;
    setTimeout(() => {
      if (!gone.isConnected && box.isConnected &&
          (document.activeElement === document.body || !document.activeElement)) {
        const next = box.querySelector(".cl-predict button.cl-answer");
        (next || box).focus({ preventScroll: true });
      }
    }, 400);
  }
  document.addEventListener("focusout", onFocusOut);

  function onAddress() {
    const address = model.get("address");
    if (!model.get("follow_address") || !address || address === window.location.search) return;
    try {
      window.history.replaceState(window.history.state, "", address);
    } catch (e) {
      /* a sandboxed frame may refuse: the link under the position still works */
    }
  }
  if (model.get("follow_address")) {
    model.send({ kind: "address", search: window.location.search });
  }
  model.on("change:groups", fill);
  model.on("change:label", fill);
  model.on("change:value", onValue);
  model.on("change:address", onAddress);
  fill();
  return () => {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("focusout", onFocusOut);
    model.off("change:groups", fill);
    model.off("change:label", fill);
    model.off("change:value", onValue);
    model.off("change:address", onAddress);
  };
}

export default { render };
