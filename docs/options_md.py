"""Write docs/OPTIONS.md, the options reference, from the typed option schema.

``python docs/options_md.py`` writes it; ``python docs/options_md.py --check`` exits 1 when the
committed file differs from what the schema gives (tests/test_options.py checks the same).
"""

from __future__ import annotations

import sys
from pathlib import Path

from crazylab.engine.options import render_markdown
from crazylab.engine.rules import PRESETS

TARGET = Path(__file__).with_name("OPTIONS.md")


def main(argv: list[str]) -> int:
    text = render_markdown(PRESETS)
    if "--check" in argv:
        same = TARGET.exists() and TARGET.read_text(encoding="utf-8") == text
        if not same:
            print(f"{TARGET} is out of date: run python docs/options_md.py", file=sys.stderr)
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
