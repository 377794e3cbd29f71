"""Every sentence that names threshold_pct and listing_max_tokens writes them one way,
``threshold_pct 5%, listing_max_tokens 4,000`` (:func:`toolsearch.analysis.wording.settings_words`):
``recommend`` (text and Markdown), ``check`` (text and Markdown), ``plan``, ``diff``, ``collapse``,
the config warnings, the HTML report and the Tuning and Report pages. Before, some surfaces wrote
``threshold_pct 4.7, listing_max_tokens 1491`` and others ``threshold_pct 4.7%, listing_max_tokens
1,491 tokens``, one page both. Machine-readable outputs keep the bare numbers (``threshold_pct: 4.7``)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli
from test_app_tuning_report import open_page

from toolsearch.analysis import wording
from toolsearch.analysis.wording import cap_words, settings_words, threshold_words
from toolsearch.engine import wording as engine_wording

ROOT = Path(__file__).absolute().parent.parent
TEAM = "sample_catalogs/team-workspace.yaml"
CLOUDFLARE = "sample_catalogs/cloudflare-flat.yaml"
LENGTHS = ("--context-lengths", "32k,200k,1m")
#: "threshold_pct" and a number with no percent sign after it (``threshold_pct 4.7,``, ``threshold_pct 5 ·``).
BARE_PCT = re.compile(r"threshold_pct (\d+(?:\.\d+)?)(?![\d%]|\.\d)")
#: the cap with a unit word after it, or a cap of four digits or more without separators.
OTHER_CAP = re.compile(r"listing_max_tokens [\d,]+ tokens|listing_max_tokens \d{4}")
#: the pair as the Tuning page wrote it between the sidebar's other settings.
DOTTED = re.compile(r"threshold_pct [\d.]+% · listing_max_tokens")


def one_form(text: str) -> None:
    """``text`` names the settings only the one way."""
    assert not BARE_PCT.findall(text), [text[max(m.start() - 60, 0):m.end() + 30] for m in BARE_PCT.finditer(text)]
    assert not OTHER_CAP.findall(text), OTHER_CAP.findall(text)
    assert not DOTTED.findall(text), DOTTED.findall(text)


def test_the_words() -> None:
    assert settings_words(5, 4000) == "threshold_pct 5%, listing_max_tokens 4,000"
    assert settings_words(4.7, 1491) == "threshold_pct 4.7%, listing_max_tokens 1,491"
    assert settings_words(100.0, 60_000) == "threshold_pct 100%, listing_max_tokens 60,000"
    assert threshold_words(0.1) == "threshold_pct 0.1%" and threshold_words(5.0) == "threshold_pct 5%"
    assert cap_words(4000) == "listing_max_tokens 4,000" and cap_words(200) == "listing_max_tokens 200"
    assert wording.cap_words is engine_wording.cap_words
    # one function, wherever it is imported from (the engine's config warnings use it too)
    assert wording.settings_words is engine_wording.settings_words
    assert wording.threshold_words is engine_wording.threshold_words
    for bad in ("threshold_pct 4.7, listing_max_tokens 1,491", "threshold_pct 4.7.", "(threshold_pct 5)",
                "threshold_pct 4.7%, listing_max_tokens 1,491 tokens", "threshold_pct 5%, listing_max_tokens 4000",
                "threshold_pct 5% · listing_max_tokens 4,000", "At listing_max_tokens 4,000 tokens, over"):
        try:
            one_form(bad)
        except AssertionError:
            continue
        raise AssertionError(f"one_form let {bad!r} through")
    one_form("threshold_pct 4.7%, listing_max_tokens 1,491 · threshold_pct: 4.7\nlisting_max_tokens: 1491")


def _run(*args: str) -> str:
    done = run_cli(*args, cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    return (done.stdout + done.stderr).replace("\\_", "_")  # Markdown's escapes removed


def test_recommend_text_and_markdown() -> None:
    for fmt in ("text", "markdown"):
        out = _run("recommend", TEAM, CLOUDFLARE, *LENGTHS, "--goal", "names", "--format", fmt)
        assert "threshold_pct 23.2%, listing_max_tokens 46,241" in out  # the best reachable setting
        assert "that goal takes threshold_pct 23.2%, listing_max_tokens 46,241: " in out
        one_form(out)
        lowered = _run("recommend", TEAM, *LENGTHS, "--goal", "names", "--headroom", "10", "--format", fmt)
        assert "lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 200K" in lowered
        one_form(lowered)
    block = _run("recommend", TEAM, CLOUDFLARE, *LENGTHS, "--goal", "names", "--yaml")
    assert "threshold_pct: 23.2\n" in block and "listing_max_tokens: 46241\n" in block  # the config keeps numbers


def test_check_plan_diff_collapse_and_config_warnings(tmp_path) -> None:
    for fmt in ("text", "markdown"):
        out = _run("check", TEAM, *LENGTHS, "--goal", "full", "--format", fmt)
        assert "threshold_pct 5%, listing_max_tokens 4,000, planning tokenizer chars4" in out
        assert "settings that reach it at every length: threshold_pct " in out
        one_form(out)
    config = tmp_path / "config.yaml"
    config.write_text("model: x\n", encoding="utf-8")
    plan = _run("plan", TEAM, "--config", str(config), "--context-length", "200k", "--threshold-pct", "4.7")
    assert "context length: 200K; threshold_pct 4.7%, listing_max_tokens 4,000\n" in plan
    assert "defaults apply (threshold_pct 5%, listing_max_tokens 4,000)" in plan
    one_form(plan)
    diff = _run("diff", "docs/examples/diff-monday.yaml", "docs/examples/diff-tuesday.yaml", "--context-length", "200k")
    assert "· context length 200K · threshold_pct 5%, listing_max_tokens 4,000 · chars4" in diff
    one_form(diff)
    collapse = _run("collapse", "docs/examples/collapse-missed-fit.yaml", "--tool-names", "as-is",
                    "--context-length", "70", "--threshold-pct", "100")
    assert "threshold_pct 100%, listing_max_tokens 4,000 → budget 70 tokens" in collapse
    one_form(collapse)


def test_report_html(tmp_path) -> None:
    out = tmp_path / "report.html"
    _run("report", TEAM, CLOUDFLARE, *LENGTHS, "--goal", "names", "--no-lint", "--no-strategies",
         "-q", "create issue", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    assert "Best reachable (goal not reached): threshold_pct 23.2%, listing_max_tokens 46,241 (" in text
    assert "Default settings (threshold_pct 5%, listing_max_tokens 4,000), not the best reachable ones" in text
    assert "threshold_pct 5%, listing_max_tokens 4,000 · enabled auto" in text  # About this report
    assert "At listing_max_tokens 4,000 (planning tokenizer chars4)." in text  # the grid's lead: the cap alone
    one_form(text)


def _page_text(at) -> str:
    return "\n".join(e.value for kind in ("caption", "markdown", "warning", "info", "success", "error")
                     for e in getattr(at, kind) if isinstance(e.value, str)).replace("\\", "")


def test_tuning_and_report_pages() -> None:
    query = {"lengths": "32k,200k,1m", "with": "cloudflare-flat", "ctx": "200K"}
    tuning = _page_text(open_page("toolsearch/ui/tuning.py", query))
    assert "Sidebar: context length 200K · threshold_pct 5%, listing_max_tokens 4,000 · planning tokenizer" in tuning
    assert ("Default: threshold_pct 5%, listing_max_tokens 4,000 (the sidebar). Best reachable: threshold_pct 23.2%, "
            "listing_max_tokens 46,241.") in tuning
    assert "At listing_max_tokens 4,000, over threshold_pct." in tuning  # the grid's caption: the cap alone, one way
    one_form(tuning)
    report = _page_text(open_page("toolsearch/ui/report.py", query))
    assert "Recommended settings across context lengths: threshold_pct 23.2%, listing_max_tokens 46,241 (the best" in report
    one_form(report)
