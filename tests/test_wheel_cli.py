"""The installed command line: ``toolsearch`` from a wheel, run in an empty folder.

A wheel built from a copy of what a source distribution holds is installed (not editable) into a
fresh virtual environment, offline (``installed_wheel`` in conftest.py, shared with
``test_wheel_app.py``; the checkout is never on the new interpreter's path).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import clean_env

ROOT = Path(__file__).resolve().parent.parent
def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def toolsearch(installed_wheel) -> Path:
    """The installed console script (the wheel's, :func:`conftest.installed_wheel`)."""
    return installed_wheel / "toolsearch"


def _help_commands() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from toolsearch.cli.commands import build_parser  # noqa: PLC0415

    return [c for c in build_parser()._subparsers._group_actions[0].choices]  # noqa: SLF001


#: Prints each command's ``--help`` as the console script does (``toolsearch.cli:main``, the entry
#: point pyproject.toml names), one JSON object ``{command: text}`` over all of them.
_HELPS = """\
import io, json, sys
from toolsearch.cli import main
helps = {}
for command in sys.argv[1:]:
    out, sys.stdout = sys.stdout, io.StringIO()
    try:
        main([command, "--help"])
    except SystemExit as stop:
        assert stop.code in (0, None), (command, stop.code)
    finally:
        out, sys.stdout = sys.stdout, out
    helps[command] = out.getvalue()
print(json.dumps(helps))
"""


def _installed_helps(toolsearch: Path, commands: list[str], cwd: Path) -> dict[str, str]:
    """``toolsearch COMMAND --help`` of every command, from the installed copy: one run of the
    wheel's interpreter (next to its console script, not on the checkout's path) calling the
    console script's entry point for each, instead of one interpreter start per command."""
    import json  # noqa: PLC0415

    done = _run([toolsearch.with_name("python"), "-c", _HELPS, *commands], cwd=cwd,
                env={**clean_env(), "COLUMNS": "100"})
    return json.loads(done.stdout)


def test_every_docs_page_a_help_names_is_installed_and_the_help_says_where(toolsearch, tmp_path):
    """Helps name docs/reference.md and other pages: a wheel carried only docs/examples/, so an
    installed toolsearch pointed at pages it did not have. Each help that names one ends with the
    folder they are installed in, and every page named is there."""
    named: set[str] = set()
    noted = 0
    helps = _installed_helps(toolsearch, _help_commands(), tmp_path)
    assert list(helps) == _help_commands()
    for command, text in helps.items():
        pages = set(re.findall(r"docs/([a-z0-9-]+\.md)", text))
        if not pages:
            continue
        last = text.rstrip("\n").splitlines()[-1]
        assert last.startswith("The docs/ pages named above are in "), (command, last)
        folder = Path(last.removeprefix("The docs/ pages named above are in "))
        assert folder.is_relative_to(toolsearch.parent.parent), folder  # the wheel's copy, not the checkout's
        named |= pages
        noted += 1
        for page in pages:
            assert (folder / page).is_file(), (command, page)
    assert noted >= 3 and "reference.md" in named


def test_the_readme_tuning_commands_run_from_the_wheel(toolsearch, tmp_path):
    """The README's "Tune your harness in 3 commands", as written, from an empty folder."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Tune your harness in 3 commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.replace("\\\n", " ").splitlines() if line.startswith("toolsearch ")]
    assert [c.split()[1] for c in commands] == ["sweep", "recommend", "check"]
    for command in commands:
        done = subprocess.run(["bash", "-c", shlex.quote(str(toolsearch)) + command.removeprefix("toolsearch")],
                              cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr)
        assert "Traceback" not in done.stderr
    assert "tool_search:" in (tmp_path / "tool_search.yaml").read_text(encoding="utf-8")


def test_a_warning_that_names_a_docs_page_ends_with_where_the_installed_pages_are(toolsearch, tmp_path):
    """Warnings on stderr cite docs/reference.md sections; from an installed copy run in another
    folder, the command ends with one note naming the folder the wheel installed them in, and a
    command whose stderr names no page gets no note."""
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {"demo": {"command": "%s", "args": ["-c", "pass", "${TOOLSEARCH_UNSET_VAR}"]}}}'
                      % sys.executable.replace("\\", "\\\\"))
    done = subprocess.run([str(toolsearch), "snapshot", str(config), "-o", str(tmp_path / "out.yaml")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=clean_env())
    lines = done.stderr.splitlines()
    assert any("(docs/reference.md §26.2)" in line for line in lines), done.stderr
    assert lines[-1].startswith("toolsearch: note: the docs/ pages named above are in "), done.stderr
    folder = Path(lines[-1].removeprefix("toolsearch: note: the docs/ pages named above are in "))
    assert folder.is_relative_to(toolsearch.parent.parent) and (folder / "reference.md").is_file(), folder
    assert sum("docs/ pages named above" in line for line in lines) == 1
    quiet = _run([toolsearch, "plan", "--help"], cwd=tmp_path, env=clean_env())
    assert "toolsearch: note:" not in quiet.stderr
