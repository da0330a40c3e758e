// crazylab's Pyodide loader: the kernel's `pyodideUrl` on the static site (site/build.py).
//
// The Pyodide kernel's worker runs `importScripts(pyodideUrl)` and then `loadPyodide(options)`.
// This script defines that `loadPyodide`: it loads Pyodide's own pyodide.js from the same folder
// and starts Python from the memory snapshot site/snapshot.mjs made at build time (Python with
// IPython, the widgets, crazylab and the kernel's shell already made) instead of from nothing,
// then writes the wheels' files back into site-packages from one pack (boot.json lists them). If anything about the
// snapshot fails, Python starts the ordinary way (every wheel of `options.packages` installed
// from the site's pyodide-lock.json), only slower.
(function () {
  "use strict";

  async function bytes(url, gunzip) {
    const response = await fetch(url);
    if (!response.ok || !response.body) {
      throw new Error(`${response.status} ${response.statusText}: ${url}`);
    }
    if (!gunzip) {
      return new Uint8Array(await response.arrayBuffer());
    }
    const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  const mine = async function loadPyodide(options) {
    const index = options.indexURL;
    importScripts(index + "pyodide.js"); // defines Pyodide's own loadPyodide over this one
    const load = self.loadPyodide;
    self.loadPyodide = mine;
    const t0 = performance.now();
    let manifest = null;
    try {
      const response = await fetch(index + "boot.json");
      manifest = response.ok ? await response.json() : null;
    } catch (err) {
      manifest = null;
    }
    if (!manifest || typeof DecompressionStream === "undefined") {
      return load(options);
    }
    const snapshot = bytes(index + manifest.snapshot, true);
    const pack = bytes(index + manifest.pack, true);
    pack.catch(() => null); // awaited below; not an unhandled rejection if the snapshot fails
    let py = null;
    try {
      py = await load(Object.assign({}, options, {
        packages: [],
        _loadSnapshot: snapshot,
        // the JavaScript objects the snapshot's Python held, by the names snapshot.mjs gave them
        _snapshotDeserializer: (name) => {
          if (name === "pyodide") return new Proxy({}, { get: (_, key) => py[key] });
          if (name === "loadPackagesFromImports") {
            return (...args) => py.loadPackagesFromImports(...args);
          }
          throw new Error(`no JavaScript object named ${name}`);
        },
      }));
      const files = await pack;
      const dirs = new Set();
      for (const [file, start, end] of manifest.files) {
        const dir = file.slice(0, file.lastIndexOf("/"));
        if (!dirs.has(dir)) {
          py.FS.mkdirTree(dir);
          dirs.add(dir);
        }
        py.FS.writeFile(file, files.subarray(start, end));
      }
      manifest.home.dirs.forEach((dir) => py.FS.mkdirTree(dir));
      Object.entries(manifest.home.files).forEach(([file, text]) => py.FS.writeFile(file, text));
    } catch (err) {
      console.warn("crazylab: Python did not start from its snapshot; starting it afresh", err);
      return load(options);
    }
    const ms = performance.now() - t0;
    console.info(`crazylab: Python started from its snapshot in ${ms.toFixed(0)} ms`);
    self.crazylabBoot = { snapshot: true, ms: ms };
    return py;
  };
  self.loadPyodide = mine;
})();
