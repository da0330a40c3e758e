// The crazylab piano keyboard (anywidget front end).
// Python sends `piano_keys` (each with its state and labels) and `caption`; this file only draws
// them, sounds a clicked key (a Web Audio oscillator: no samples, no network) and reports the
// click by setting `selected` to the key's MIDI number and sending {event: "play", midi}.
// No music logic here.

// One AudioContext for every keyboard of the page, made on the first click (browsers allow
// sound only after a user gesture). Sound is a bonus: without Web Audio the keys still work.
let audio = null;

function audioContext() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  if (audio.state === "suspended" && audio.resume) audio.resume().catch(() => {});
  return audio;
}

export function playNote(midi, seconds = 0.9) {
  let ctx;
  try {
    ctx = audioContext();
  } catch (e) {
    return false;
  }
  if (!ctx) return false;
  const t = ctx.currentTime;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(0.25, t + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + seconds);
  gain.connect(ctx.destination);
  const freq = 440 * Math.pow(2, (midi - 69) / 12);
  // a soft electric piano: the fundamental and a quieter octave
  for (const [ratio, level, type] of [[1, 1, "triangle"], [2, 0.25, "sine"]]) {
    const osc = ctx.createOscillator();
    const g = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq * ratio, t);
    g.gain.setValueAtTime(level, t);
    osc.connect(g);
    g.connect(gain);
    osc.start(t);
    osc.stop(t + seconds + 0.05);
  }
  return true;
}

const esc = (s) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const WHITE_W = 46;
const WHITE_H = 150;
const BLACK_W = 28;
const BLACK_H = 94;
const TOP = 26; // room for the interval labels above the keys

function stateWords(k) {
  if (k.state === "ref") return k.fits ? "the top card's key (its cards fit: the same pitch)" : "the top card's key";
  if (k.state === "ok") return "fits";
  if (k.state === "absent") return "no such card in this deck";
  return "does not fit";
}

function keyAria(k) {
  const cards = k.ranks ? `, cards ${k.ranks}` : "";
  const iv = k.interval ? `, ${k.interval}` : "";
  return `${k.name}${cards}${iv}: ${stateWords(k)}`;
}

function drawSvg(keys, selected) {
  const whites = keys.filter((k) => !k.black);
  const width = whites.length * WHITE_W + 2;
  const height = TOP + WHITE_H + 4;
  const xOf = new Map();
  let wi = 0;
  for (const k of keys) {
    if (k.black) xOf.set(k.midi, wi * WHITE_W - BLACK_W / 2 + 1);
    else xOf.set(k.midi, wi++ * WHITE_W + 1);
  }
  const part = (k) => {
    const x = xOf.get(k.midi);
    const w = k.black ? BLACK_W : WHITE_W;
    const h = k.black ? BLACK_H : WHITE_H;
    const cls = `cl-key ${k.black ? "cl-black" : "cl-white"} cl-${k.state}${k.fits ? " cl-fits" : ""}${k.midi === selected ? " cl-selected" : ""}`;
    const cx = x + w / 2;
    const label = k.black
      ? `<text class="cl-krank cl-on-black" x="${cx}" y="${TOP + 16}">${esc(k.ranks)}</text>
         <text class="cl-kname cl-on-black" x="${cx}" y="${TOP + h - 22}">${esc(k.name.split("/")[0])}</text>
         <text class="cl-kname cl-on-black" x="${cx}" y="${TOP + h - 10}">${esc(k.name.split("/")[1] || "")}</text>`
      : `<text class="cl-kname" x="${cx}" y="${TOP + h - 30}">${esc(k.name)}</text>
         <text class="cl-krank" x="${cx}" y="${TOP + h - 12}">${esc(k.ranks)}</text>`;
    const step = k.step ? `<text class="cl-kstep${k.fits ? " cl-kstep-ok" : ""}" x="${cx}" y="${k.black ? 11 : 23}">${esc(k.step)}</text>` : "";
    return `<g class="cl-keyg" data-midi="${k.midi}" role="button" tabindex="0" aria-label="${esc(keyAria(k))}">
      <title>${esc(keyAria(k))}</title>
      <rect class="${cls}" x="${x}" y="${TOP}" width="${w}" height="${h}" rx="${k.black ? 3 : 5}"></rect>
      ${label}${step}</g>`;
  };
  const body = whites.map(part).join("") + keys.filter((k) => k.black).map(part).join("");
  return `<svg class="cl-piano-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="group" aria-label="Piano keyboard">${body}</svg>`;
}

function legend(keys) {
  const ok = [];
  for (const k of keys) {
    if (!k.fits) continue;
    const text = `${k.name} (${k.ranks}): ${k.interval}`;
    if (!ok.includes(text)) ok.push(text);
  }
  const items = ok.map((t) => `<li>${esc(t)}</li>`).join("");
  return `<div class="cl-legend"><span class="cl-sw cl-sw-ref"></span> top card's key
    <span class="cl-sw cl-sw-ok"></span> may be played <span class="cl-sw cl-sw-no"></span> may not
    <span class="cl-sw cl-sw-absent"></span> not in this deck</div>
    ${items ? `<ul class="cl-fitlist" aria-label="Keys that fit">${items}</ul>` : ""}`;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "cl-piano";
  el.appendChild(root);
  const draw = () => {
    const keys = model.get("piano_keys") || [];
    const selected = model.get("selected");
    // keep the keyboard focus on the same key (or the sound button) across a redraw
    const active = root.contains(document.activeElement) ? document.activeElement : null;
    const focusMidi = active && active.dataset ? active.dataset.midi : undefined;
    const focusSound = active ? active.classList.contains("cl-sound") : false;
    const sound = model.get("sound");
    root.innerHTML = `<div class="cl-piano-top"><div class="cl-piano-caption">${esc(model.get("caption"))}</div>
      <button type="button" class="cl-sound" aria-pressed="${sound ? "true" : "false"}"
        title="Play each key's note when it is clicked"><span aria-hidden="true">♪</span> ${sound ? "Sound on" : "Sound off"}</button></div>
      <div class="cl-piano-scroll">${drawSvg(keys, selected)}</div>${legend(keys)}`;
    root.querySelector(".cl-sound").addEventListener("click", () => {
      model.set("sound", !model.get("sound"));
      model.save_changes();
    });
    root.querySelectorAll("[data-midi]").forEach((g) => {
      const pick = () => {
        const midi = Number(g.dataset.midi);
        if (model.get("sound")) playNote(midi);
        model.set("selected", midi);
        model.save_changes();
        model.send({ event: "play", midi });
      };
      g.addEventListener("click", pick);
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          pick();
        }
      });
    });
    if (focusMidi !== undefined) root.querySelector(`[data-midi="${focusMidi}"]`)?.focus();
    else if (focusSound) root.querySelector(".cl-sound")?.focus();
  };
  model.on("change:piano_keys", draw);
  model.on("change:selected", draw);
  model.on("change:caption", draw);
  model.on("change:sound", draw);
  draw();
  return () => {
    model.off("change:piano_keys", draw);
    model.off("change:selected", draw);
    model.off("change:caption", draw);
    model.off("change:sound", draw);
  };
}

export default { render };
