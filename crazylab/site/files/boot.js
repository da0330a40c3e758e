// crazylab's Pyodide loader: the kernel's `pyodideUrl` on the static site (crazylab/site/build.py).
//
// The Pyodide kernel's worker runs `importScripts(pyodideUrl)` and then `loadPyodide(options)`.
// This script defines that `loadPyodide`: it loads Pyodide's own pyodide.js from the same folder
// and starts Python from the memory snapshot site/snapshot.mjs made at build time (Python with
// IPython, the widgets, crazylab and the kernel's shell already made) instead of from nothing,
// then writes the wheels' files back into site-packages from one pack (boot.json lists them). If anything about the
// snapshot fails, Python starts the ordinary way (every wheel of `options.packages` installed
// from the site's pyodide-lock.json), only slower. The snapshot and the pack are kept in the
// browser's Cache Storage (CACHE) under their versions, so a later visit reads them from there.
(function () {
  "use strict";

  //: the Cache Storage of the snapshot and the pack: a browser's HTTP cache may not keep files
  //: this big (a private window's keeps none over a few MB) and asks the server again when they
  //: are new; this keeps them until boot.json names other versions
  const CACHE = "crazylab-boot";

  async function fromCache(url) {
    let cache = null;
    try {
      cache = await caches.open(CACHE);
      const hit = await cache.match(url);
      if (hit) {
        return hit;
      }
    } catch (err) {
      cache = null; // no Cache Storage here (an opaque origin, storage switched off)
    }
    const response = await fetch(url);
    if (cache && response.ok) {
      const path = new URL(url).pathname;
      cache.put(url, response.clone())
        .then(() => cache.keys())
        .then((keys) => Promise.all(keys.filter((k) => k.url !== url &&
          new URL(k.url).pathname === path).map((k) => cache.delete(k))))
        .catch((err) => console.warn("crazylab: could not keep", url, err));
    }
    return response;
  }

  async function bytes(url, gunzip) {
    const response = gunzip ? await fromCache(url) : await fetch(url);
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
