"""A list of context lengths that gives one length twice (``32k,32000``) counts it once, and says
so: ``--context-lengths`` with one warning line on stderr naming both spellings (exit status and
output unchanged), the Tuning page's and the Sessions page's fields with a caption under them. It
was dropped without a word."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
WARNING = "toolsearch: warning: --context-lengths: 32000 repeats 32k (32,000 tokens); counted once"


def test_recommend_says_a_repeated_length_is_counted_once():
    once = run_cli("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "names")
    twice = run_cli("recommend", TEAM, "--context-lengths", "32k,1m,32000", "--goal", "names")
    assert (twice.returncode, twice.stdout) == (once.returncode, once.stdout) == (0, once.stdout)
    assert twice.stderr.splitlines() == [WARNING], twice.stderr
    assert WARNING not in once.stderr


def test_every_spelling_and_the_same_spelling_twice_are_named():
    done = run_cli("sweep", TEAM, "--context-lengths", "32k,32000,32_000,unknown,none,1m,1m", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "toolsearch: warning: --context-lengths: 32000 and 32_000 repeat 32k (32,000 tokens); counted once",
        "toolsearch: warning: --context-lengths: none repeats unknown; counted once",
        "toolsearch: warning: --context-lengths: 1m is given twice (1,000,000 tokens); counted once"], done.stderr


def test_check_warns_and_keeps_its_exit_status():
    done = run_cli("check", TEAM, "--context-lengths", "32k,32000", "--goal", "names", "--listing-max-tokens",
                   "8000", "--threshold-pct", "10")
    assert done.returncode == 0, done.stdout + done.stderr
    assert WARNING in done.stderr.splitlines(), done.stderr


def _app(query: dict[str, str], page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page(f"toolsearch/ui/{page}.py").run()
    assert not at.exception, at.exception
    return at


def test_the_tuning_page_says_a_repeated_length_in_its_link_is_counted_once():
    at = _app({"lengths": "32k, 200k, 32000", "goal": "names"}, "tuning")
    said = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Context lengths\\:")]
    assert said == ["Context lengths: 32000 repeats 32k (32,000 tokens); counted once."], said
    at.text_input(key="tuning_contexts").set_value("32k, 200k").run()
    assert not [c.value for c in at.caption if c.value.startswith("Context lengths\\:")]


def test_the_sessions_what_if_says_a_repeated_length_is_counted_once():
    at = _app({}, "sessions")
    at.text_input(key="sessions_lengths").set_value("8k, 1m, 8000").run()
    said = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Context lengths\\:")]
    assert said == ["Context lengths: 8000 repeats 8k (8,000 tokens); counted once."], said


def test_harnesses_counts_a_repeated_length_once_and_says_so():
    once = run_cli("harnesses", TEAM, "--context-lengths", "32k")
    twice = run_cli("harnesses", TEAM, "--context-lengths", "32k,32000")
    assert (twice.returncode, twice.stdout) == (once.returncode, once.stdout) == (0, once.stdout)
    assert twice.stdout.count("At 32K") == 1, twice.stdout
    assert twice.stderr.splitlines() == [WARNING, *once.stderr.splitlines()], twice.stderr
    assert WARNING not in once.stderr
    rows = run_cli("harnesses", TEAM, "--context-lengths", "32k,32000", "--json")
    assert rows.returncode == 0 and rows.stderr.splitlines().count(WARNING) == 1, rows.stderr
