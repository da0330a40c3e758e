// Add bytecode to pure-Python wheels, compiled by the Python that runs in the browser.
//
//   node precompile.mjs WHEEL...        (what crazylab/site/build.py runs)
//
// Pyodide's Python would otherwise compile every module from source on every visit, in
// WebAssembly, and keep nothing: importing IPython and the widgets took 4x as long from source
// as from bytecode. The bytecode has to be made by the same Python (3.13 of the npm package
// `pyodide` in node_modules), so it is compiled here in node. Each module's source is replaced
// by its bytecode (`x.py` -> `x.pyc`, which Python imports without a source, as Pyodide ships
// its own packages): the wheels stay about as small, and a traceback names file, line and
// function but shows no source line. Each wheel is rewritten in place with its RECORD updated.
import { loadPyodide } from "./node_modules/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const wheels = process.argv.slice(2);
const py = await loadPyodide({ indexURL: path.join(here, "node_modules", "pyodide") + "/" });
py.runPython(`
import base64, csv, hashlib, importlib.util, io, sys, warnings, zipfile
warnings.simplefilter("ignore", SyntaxWarning)  # third-party escapes; not ours to fix

def _hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

def precompile(src, dst):
    """Copy wheel src to dst with every module as bytecode only."""
    out = {}
    with zipfile.ZipFile(src) as z:
        names = z.namelist()
        for name in names:
            if not name.endswith("/RECORD") or ".dist-info/" not in name:
                out[name] = z.read(name)
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    compiled = 0
    for name, data in list(out.items()):
        if not name.endswith(".py") or ".dist-info/" in name:
            continue
        try:
            code = compile(data, name, "exec", dont_inherit=True, optimize=0)
        except SyntaxError:
            continue  # a file Python cannot import anyway (templates, py2 leftovers)
        del out[name]  # sourceless: the bytecode where the module was, as Pyodide ships its own
        out[name + "c"] = importlib._bootstrap_external._code_to_timestamp_pyc(code, 0, len(data))
        compiled += 1
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\\n")
    for name, data in out.items():
        writer.writerow([name, _hash(data), len(data)])
    writer.writerow([record, "", ""])
    out[record] = rows.getvalue().encode()
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in out.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return compiled
`);
const precompile = py.globals.get("precompile");
for (const wheel of wheels) {
  py.FS.writeFile("/tmp/in.whl", fs.readFileSync(wheel));
  const n = precompile("/tmp/in.whl", "/tmp/out.whl");
  fs.writeFileSync(wheel, py.FS.readFile("/tmp/out.whl"));
  console.log(`precompiled ${n} modules: ${path.basename(wheel)}`);
}
