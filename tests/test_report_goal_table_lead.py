"""The report's "Settings that reach each form" table counts every server; a recommendation that
lets a server collapse (``--except``) or keeps one (``--keep``) needs another budget, and the table
then says so above its rows, so a reviewer does not read a row as the recommendation's budget."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
LEAD = "Each goal here counts every server of the catalog; the recommended settings above are chosen for their own goal"


def _section(html: str) -> str:
    return html.split("Settings that reach each form</h2>", 1)[1].split("<h2", 1)[0]


def _report(tmp_path: Path, *extra: str) -> str:
    out = tmp_path / "report.html"
    done = run_cli("report", TEAM, "--context-lengths", "32k,1m", "--goal", "names", *extra, "-o", out)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8")


def test_an_excepting_recommendation_says_the_table_is_another_figure(tmp_path: Path) -> None:
    section = _section(_report(tmp_path, "--except", "github"))
    assert LEAD in section and "except github (may collapse)" in section.split("<table", 1)[0]
    assert section.index(LEAD) < section.index("<table")


def test_without_excepted_or_kept_servers_the_table_stands_alone(tmp_path: Path) -> None:
    assert LEAD not in _section(_report(tmp_path))
