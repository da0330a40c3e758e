// A memory snapshot of the browser's Python with the site's packages imported and the kernel
// made, taken once at build time (what crazylab/site/build.py runs):
//
//   node site/snapshot.mjs PYODIDE_DIR MANIFEST OUT      (OUT: the gzipped snapshot)
//
// Without it every visit starts Python from nothing, unpacks ~25 wheels, imports IPython,
// traitlets, the widgets and crazylab and builds the kernel's IPython shell: most of the time
// to a playable table. The snapshot is Pyodide's own (`_makeSnapshot` / `makeMemorySnapshot`,
// restored with `_loadSnapshot`; it only loads into the same pyodide.asm.js, which it checks):
// the WebAssembly memory, not the files. So MANIFEST (boot.json) lists the wheels' files, which
// site/boot.js writes back from one pack before Python runs again, and this script adds to it
// the few files and folders the imports made (IPython's profile folder). JavaScript objects
// Python holds cannot be in a snapshot: the two the kernel imports go by name (JS_OBJECTS) and
// boot.js hands over the new ones. Then the snapshot is restored here once and runs a cell
// through the kernel, so a snapshot that cannot start the kernel fails the build.
import { loadPyodide } from "./node_modules/pyodide/pyodide.mjs";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [pyodideDir, manifestPath, out] = process.argv.slice(2);
const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
const indexURL = path.join(path.dirname(new URL(import.meta.url).pathname),
                           "node_modules", "pyodide") + "/";
for (const event of ["uncaughtException", "unhandledRejection"]) {
  process.on(event, (err) => { // not the whole minified line of pyodide.asm.js
    console.error(`snapshot.mjs: ${err && err.message ? err.message : err}`);
    process.exit(1);
  });
}
const pack = zlib.gunzipSync(fs.readFileSync(path.join(pyodideDir, manifest.pack)));

function writeFiles(py, home) {
  const dirs = new Set();
  for (const [file, start, end] of manifest.files) {
    const dir = file.slice(0, file.lastIndexOf("/"));
    if (!dirs.has(dir)) {
      py.FS.mkdirTree(dir);
      dirs.add(dir);
    }
    py.FS.writeFile(file, pack.subarray(start, end));
  }
  for (const dir of home ? home.dirs : []) py.FS.mkdirTree(dir);
  for (const [file, text] of home ? Object.entries(home.files) : []) py.FS.writeFile(file, text);
}

const WALK = `
import os
def _walk():
    found = {}
    for top in ("/home", "/tmp"):
        for d, dirs, files in os.walk(top):
            for x in dirs:
                found[os.path.join(d, x)] = None
            for x in files:
                with open(os.path.join(d, x), encoding="utf-8") as f:
                    found[os.path.join(d, x)] = f.read()
    return found
`;

const py = await loadPyodide({ indexURL, _makeSnapshot: true });
writeFiles(py, null);
py.runPython(WALK + "_before = _walk()");
py.runPython(`
import importlib, sys
importlib.invalidate_caches()
for _name in ${JSON.stringify(manifest.imports)}:
    importlib.import_module(_name)
assert "micropip" not in sys.modules, "micropip holds JavaScript objects: not in the snapshot"
from comm import get_comm_manager
_targets = sorted(get_comm_manager().targets)
assert "jupyter.widget.control" in _targets, f"ipywidgets' comm targets not registered: {_targets}"
_made = {k: v for k, v in _walk().items() if k not in _before}
`);
const made = py.globals.get("_made").toJs({ dict_converter: Object.fromEntries });
const home = { dirs: [], files: {} };
for (const [file, text] of Object.entries(made)) {
  if (text === undefined || text === null) home.dirs.push(file);
  else home.files[file] = text;
}
py.runPython("del _made, _before, _walk, _name, _targets, get_comm_manager");
const modules = py.runPython("len(sys.modules)");

//: the JavaScript objects Python may hold at snapshot time, by name (boot.js: the same names)
const JS_OBJECTS = { pyodide: py, loadPackagesFromImports: py.loadPackagesFromImports };
const snapshot = py.makeMemorySnapshot({
  serializer: (obj) => {
    for (const [name, value] of Object.entries(JS_OBJECTS)) {
      if (obj === value) return name;
    }
    throw new Error(`Python holds a JavaScript object the snapshot cannot name: ${obj}`);
  },
});
const gz = zlib.gzipSync(snapshot, { level: 6 });
fs.writeFileSync(out, gz);
manifest.home = home;
// versions in the names boot.js fetches and keeps in Cache Storage: a new build, new names
const version = (data) => crypto.createHash("sha256").update(data).digest("hex").slice(0, 16);
manifest.snapshot = `${path.basename(out)}?v=${version(gz)}`;
const packFile = fs.readFileSync(path.join(pyodideDir, manifest.pack));
manifest.pack = `${manifest.pack}?v=${version(packFile)}`;
fs.writeFileSync(manifestPath, JSON.stringify(manifest));

// the check: restore it as boot.js does and run a cell through the kernel
let api = null;
const restored = await loadPyodide({
  indexURL,
  _loadSnapshot: snapshot,
  _snapshotDeserializer: (name) => {
    if (name === "pyodide") return new Proxy({}, { get: (_, key) => api[key] });
    if (name === "loadPackagesFromImports") return (...args) => api.loadPackagesFromImports(...args);
    throw new Error(`no JavaScript object named ${name}`);
  },
});
api = restored;
writeFiles(restored, home);
await restored.runPythonAsync(`
import pyodide_kernel
_r = await pyodide_kernel.kernel_instance.run("from crazylab.widgets import GameTable; GameTable")
assert _r["status"] == "ok", _r
`);
console.log(`snapshot: ${modules} modules, ${(snapshot.length / 1e6).toFixed(1)} MB` +
            ` (${(gz.length / 1e6).toFixed(1)} MB gzipped), restored and ran a cell:` +
            ` ${path.basename(out)}`);
