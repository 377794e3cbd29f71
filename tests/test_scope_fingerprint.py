"""A catalog keeps one fingerprint whatever the session scope: the exported block's ``# catalog:``
line and the report name the catalog (its name is the whole catalog's), and the block is one for
every session, so a scope must not give the same catalog name another fingerprint (CLI and
Streamlit ``AppTest``)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.engine.scopes import parse_scope_arg
from toolsearch.live.client import catalog_key

ROOT = Path(__file__).absolute().parent.parent
SAMPLE = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = ("--context-lengths", "32k,200k,1m", "--goal", "names")
WHOLE = catalog_key(inspector_of([SAMPLE]).catalog)


def _catalog_line(block: str) -> str:
    return next(line for line in block.splitlines() if line.startswith("# catalog: "))


def test_recommend_yaml_with_a_scope_fingerprints_the_whole_catalog():
    whole = run_cli("recommend", SAMPLE, *LENGTHS, "--yaml")
    scoped = run_cli("recommend", SAMPLE, *LENGTHS, "--yaml", "--scope", "bot=slack,github")
    assert whole.returncode == 0 and scoped.returncode == 0, (whole.stderr, scoped.stderr)
    assert _catalog_line(whole.stdout) == f"# catalog: Team workspace (fingerprint {WHOLE})"
    assert _catalog_line(scoped.stdout) == _catalog_line(whole.stdout)
    assert "# whole catalog (sessions outside scope bot) at 32K" in scoped.stdout  # the scope is still said


def test_report_with_a_scope_gives_the_whole_catalogs_fingerprint(tmp_path):
    out = tmp_path / "review.html"
    result = run_cli("report", SAMPLE, *LENGTHS, "--scope", "bot=slack,github", "--no-strategies", "-o", out)
    assert result.returncode == 0, result.stderr
    found = set(re.findall(r"\b[0-9a-f]{16}\b", out.read_text(encoding="utf-8")))
    assert WHOLE in found, found
    assert catalog_key(inspector_of([SAMPLE]).scoped(parse_scope_arg("bot=slack,github")).catalog) not in found


def test_tuning_page_block_with_a_scope_fingerprints_the_whole_catalog():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scope"] = "bot=slack,github"
    at.query_params["lengths"] = "32k,200k,1m"
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    assert at.session_state["scope_choice"] == "bot"
    blocks = [c.value for c in at.code if "# toolsearch " in str(c.value)]
    assert len(blocks) == 1, blocks
    assert _catalog_line(blocks[0]) == f"# catalog: Team workspace (fingerprint {WHOLE})"
    assert "# whole catalog (sessions outside scope bot)" in blocks[0]
