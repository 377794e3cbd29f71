"""The installed command line: ``toolsearch`` from a wheel, run in an empty folder.

A wheel built from a copy of what a source distribution holds is installed (not editable) into a
fresh virtual environment, offline, as in ``test_wheel_app.py`` (the dependencies come from this
interpreter through a ``.pth`` line; the checkout is never on the new interpreter's path).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What a source distribution holds (MANIFEST.in), the files and the folders the build reads.
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
BUILD_TREES = ("toolsearch", "sample_catalogs", "sample_sessions", "sample_skills", "docs")


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def toolsearch(tmp_path_factory) -> Path:
    """The installed console script of a fresh virtual environment with the wheel installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in BUILD_INPUTS:
        shutil.copy2(ROOT / name, src / name)
    for name in BUILD_TREES:
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
          "--wheel-dir", tmp / "dist", src], env=_clean_env())
    wheels = sorted((tmp / "dist").glob("toolsearch-*.whl"))
    assert len(wheels) == 1, wheels
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                        env=_clean_env()).stdout.strip())
    (purelib / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--no-warn-script-location", wheels[0]],
         env=_clean_env())
    return venv / "bin" / "toolsearch"


def _help_commands() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from toolsearch.cli.commands import build_parser  # noqa: PLC0415

    return [c for c in build_parser()._subparsers._group_actions[0].choices]  # noqa: SLF001


def test_every_docs_page_a_help_names_is_installed_and_the_help_says_where(toolsearch, tmp_path):
    """Helps name docs/reference.md and other pages: a wheel carried only docs/examples/, so an
    installed toolsearch pointed at pages it did not have. Each help that names one ends with the
    folder they are installed in, and every page named is there."""
    named: set[str] = set()
    noted = 0
    for command in _help_commands():
        text = _run([toolsearch, command, "--help"], cwd=tmp_path, env={**_clean_env(), "COLUMNS": "100"}).stdout
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
                              cwd=tmp_path, env=_clean_env(), capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr)
        assert "Traceback" not in done.stderr
    assert "tool_search:" in (tmp_path / "config.yaml").read_text(encoding="utf-8")
