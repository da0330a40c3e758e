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


def test_ci_runs_the_quick_starts_test_command():
    """CI runs exactly what a new user runs: the quick start's test command, and no other
    make target is offered in the README as the way to test."""
    text = README.read_text()
    block = text[text.index("## Quick start"):]
    block = block[block.index("```sh"):block.index("```", block.index("```sh") + 5)]
    commands = [line.split("#")[0].strip() for line in block.splitlines()[1:] if line.strip()]
    test_command = next(c for c in commands if "test" in c)
    ci = (README.parent / ".ci" / "run").read_text()
    run = [line.strip() for line in ci.splitlines()
           if line.strip() and not line.strip().startswith("#")]
    assert test_command in run, (test_command, "not a line of .ci/run")
    assert not re.search(r"`make (check|test-\w+)`", text), "another test command in README"
