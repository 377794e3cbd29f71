"""README commands run from any folder when their files are shipped samples (``sample_catalogs/``,
``sample_sessions/``, ``sample_skills/``, ``docs/examples/``: an installed package carries them). A
command whose files are elsewhere in the repository (``benchmarks/data/...``) fails from an installed
copy with "No such file or directory", so the README says it runs in a checkout."""

from __future__ import annotations

import re
from pathlib import Path

from toolsearch.analysis.samples import SAMPLE_FOLDERS

ROOT = Path(__file__).resolve().parent.parent


def test_readme_commands_on_files_not_shipped_say_they_need_a_checkout():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    spans = [(m.start(), " ".join(m.group(1).split())) for m in re.finditer(r"`(toolsearch [^`]+)`", text)]
    checked = 0
    for start, command in spans:
        paths = [w for w in command.split() if "/" in w and not w.startswith(("-", "http"))]
        repo_only = [p for p in paths if not p.startswith(SAMPLE_FOLDERS) and (ROOT / p.split("/")[0]).is_dir()]
        if repo_only:
            checked += 1
            before = text[max(0, start - 200):start]
            assert "checkout" in before, f"README runs {command!r} on {repo_only}, not shipped: say it needs a checkout"
    assert checked  # the eval command of "Search quality out of sample" is among them
