"""The README's Python example works as printed."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs_and_prints_what_it_says(capsys):
    block = re.search(r"```python\n(import crazylab as cl.*?)```", README.read_text(), re.S)
    code = block.group(1)
    exec(compile(code, "README", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    promised = [m.group(1).strip() for m in re.finditer(r"print\(game\.\w+.*?#\s*(.+)", code)]
    assert "['QS', 'draw']" in printed
    assert promised[-1] in printed
