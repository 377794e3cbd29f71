"""Where the recommendation lists more than the current settings, ``recommend`` says so in the
words the Tuning page's change column gives (``better: 2 → 9 of 9 servers named``): it said only
where it lists less, so a user raising a too-small setting saw no line on what it gains."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent


def _config(tmp_path: Path) -> Path:
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search:\n    threshold_pct: 1\n    listing_max_tokens: 500\n", encoding="utf-8")
    return config


def test_text_and_markdown_say_where_it_lists_more(tmp_path):
    args = ("recommend", "sample_catalogs/team-workspace.yaml", "--config", _config(tmp_path),
            "--context-lengths", "32k,200k", "--goal", "names")
    text = run_cli(*args, cwd=ROOT)
    assert text.returncode == 0, text.stderr
    line = next(x for x in text.stdout.splitlines() if x.startswith("lists more than"))
    assert line == ("lists more than the current settings (threshold_pct 1%, listing_max_tokens 500) at "
                    "32K (better: 2 → 9 of 9 servers named), 200K (better: 4 → 9 of 9 servers named)")
    markdown = run_cli(*args, "--format", "markdown", cwd=ROOT).stdout
    assert "- lists more than the current settings" in markdown


def test_no_line_when_it_lists_no_more(tmp_path):
    # the defaults list more than the names goal needs: the answer lists less, never more
    done = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,200k",
                   "--goal", "names", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert not any(x.startswith("lists more than") for x in done.stdout.splitlines())
    assert any(x.startswith("lists less than the default settings") for x in done.stdout.splitlines())
