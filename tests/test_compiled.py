"""The optional mypyc build of the engine (``make compiled``; ``make test-compiled`` runs the
whole suite against it with ``CRAZYLAB_COMPILED=1``).

The default package is pure Python; the compiled build plays exactly like it: the same moves,
logs, results, explanations, copies and undo for every preset."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import crazylab.engine.game as engine_game

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]
COMPILED = os.environ.get("CRAZYLAB_COMPILED") == "1"
sys.path.insert(0, str(ROOT / "tools"))
from build_backend import COMPILED_MODULES  # noqa: E402  (what the build compiles)

ENGINE_MODULES = [p.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
                  for p in COMPILED_MODULES]

#: run by both builds; prints one JSON document of everything observable in many games
TRACE = r'''
import dataclasses, json, random
import crazylab as cl

out = []
for name in cl.PRESETS:
    r = cl.rules(name)
    for n in range(r.min_players, min(r.max_players, r.min_players + 2) + 1):
        for seed in range(4):
            g = cl.Game.new(name, n, seed=seed)
            rng = random.Random(seed)
            steps = []
            while not g.over and len(g.moves) < 400:
                legal = g.legal()
                probe = g.hand(g.to_play)[0] if g.hands[g.to_play] else None
                steps.append([legal, "" if probe is None else g.explain(str(probe))])
                if len(g.moves) % 7 == 3:  # take one back and play it again
                    g.push(legal[rng.randrange(len(legal))])
                    g.undo()
                g.push(legal[rng.randrange(len(legal))])
            copy = g.copy()
            out.append([name, n, seed, steps, cl.story(g),
                        [g.winners, g.scores, g.end_reason], str(g),
                        repr(dataclasses.astuple(dataclasses.replace(g.observation(0), log=()))),
                        copy.fingerprint() == g.fingerprint()])
print(json.dumps(out))
'''


def _modules_compiled() -> dict[str, bool]:
    import importlib

    return {m: not importlib.import_module(m).__file__.endswith(".py") for m in ENGINE_MODULES}


def test_the_engine_is_the_build_the_run_asks_for() -> None:
    """Pure by default (``pip install -e .``); every hot module compiled under
    ``CRAZYLAB_COMPILED=1``."""
    assert _modules_compiled() == dict.fromkeys(ENGINE_MODULES, COMPILED), engine_game.__file__


@pytest.mark.skipif(not COMPILED, reason="only with the compiled build (make test-compiled)")
def test_compiled_engine_plays_exactly_like_the_pure_one() -> None:
    namespace: dict[str, object] = {}
    from contextlib import redirect_stdout
    from io import StringIO

    buffer = StringIO()
    with redirect_stdout(buffer):
        exec(TRACE, namespace)
    compiled = json.loads(buffer.getvalue())
    env = {k: v for k, v in os.environ.items() if k != "CRAZYLAB_COMPILED"}
    env["PYTHONPATH"] = str(ROOT)
    check = subprocess.run([sys.executable, "-P", "-c",
                            "import crazylab.engine.game as g; print(g.__file__)"],
                           env=env, capture_output=True, text=True, check=True)
    assert check.stdout.strip().endswith(".py")  # the other side is the pure package
    pure = json.loads(subprocess.run([sys.executable, "-P", "-c", TRACE], env=env,
                                     capture_output=True, text=True, check=True).stdout)
    assert len(compiled) == len(pure) > 30
    for c, p in zip(compiled, pure, strict=True):
        assert c == p, f"{c[:3]} differs between the compiled and the pure engine"
    assert all(row[-1] for row in compiled)  # copy() keeps the whole state
