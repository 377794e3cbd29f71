"""What to do next, where the sessions show a problem: the failed searches and the called tools the
listing leaves unnamed at some context length. ``toolsearch sessions`` and the Sessions page said what
went wrong (a gate term that occurs in no tool, ``2/7`` called tools listed at 16K) and stopped there;
both now say what a user can change, with the same words from one place in the library."""

from __future__ import annotations

import shlex
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.analysis.sessions import (FAILED_SEARCHES_NEXT_WORDS, CalledListed, called_unnamed_next_words)
from toolsearch.ui.common import md_escape

ROOT = Path(__file__).absolute().parent.parent
STORE = ROOT / "sample_sessions" / "state.db"
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _sessions_text(*extra: str) -> str:
    result = run_cli("sessions", str(STORE), "--catalog", str(CATALOG), "--variant", "reference", *extra)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_next_step_words_name_where_and_what_to_run():
    at = [CalledListed(16_000, 800, "mixed", 2, 7, 2), CalledListed(200_000, 4_000, "full", 7, 7, 9),
          CalledListed(None, 4_000, "full", 6, 7, 8)]
    words = called_unnamed_next_words(at)
    assert words is not None
    assert words.startswith("called tools not named at 16K (5 of 7), unknown (1 of 7): ")
    assert "--context-lengths 16k,200k,unknown --goal listed --sessions SESSIONS --keep-called" in words
    assert "“Keep called servers named”" in words
    # every called tool named, or none called: nothing to do
    assert called_unnamed_next_words([CalledListed(200_000, 4_000, "full", 7, 7, 9)]) is None
    assert called_unnamed_next_words([CalledListed(16_000, 800, "mixed", 0, 0, 0)]) is None


def test_cli_says_what_to_do_after_failed_searches_and_unnamed_called_tools():
    text = _sessions_text()
    failed = text.split("failed searches (recorded empty):\n")[1].split("\n\n")[0].splitlines()
    assert failed[-1] == FAILED_SEARCHES_NEXT_WORDS
    at_lengths = text.split("called tools already listed by name, at the current threshold_pct and "
                            "listing_max_tokens:\n")[1].split("\n\n")[0].splitlines()
    assert "16K" in at_lengths[2] and "2/7" in at_lengths[2]
    assert at_lengths[-1].startswith("called tools not named at 16K (5 of 7): ")
    # the command it names runs and, with the sessions' own paths, names every called tool at every length
    command = at_lengths[-1].split(" is toolsearch ")[1].split(", or the Tuning page")[0]
    args = [str(CATALOG) if a == "CATALOG" else str(STORE) if a == "SESSIONS" else a for a in shlex.split(command)]
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    rows = result.stdout.split("-------\n")[-1].split("\nsessions:")[0].splitlines()
    assert [row.split()[0] for row in rows] == ["16K", "32K", "200K", "1M"]
    assert all(row.split()[-2] == "7/7" for row in rows), rows


def test_cli_says_nothing_more_when_every_called_tool_is_named():
    text = _sessions_text("--context-lengths", "32k,200k")
    assert "called tools not named" not in text


def test_sessions_page_says_the_same_next_steps():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert md_escape(FAILED_SEARCHES_NEXT_WORDS[0].upper() + FAILED_SEARCHES_NEXT_WORDS[1:] + ".") in captions
    infos = [i.value for i in at.info]
    text = _sessions_text()
    cli_line = next(line for line in text.splitlines() if line.startswith("called tools not named at "))
    assert md_escape(cli_line[0].upper() + cli_line[1:] + ".") in infos, infos


def test_docs_quote_the_line_the_command_prints():
    """docs/sessions.md quotes the next-step line of ``toolsearch sessions`` on the sample store: the
    quote is the line the command prints (figures in the docs are checked, never typed by hand)."""
    text = _sessions_text()
    cli_line = next(line for line in text.splitlines() if line.startswith("called tools not named at "))
    docs = " ".join((ROOT / "docs" / "sessions.md").read_text(encoding="utf-8").split())
    quoted = docs.split("give this step: `")[1].split("`.")[0]
    assert quoted == cli_line



def test_flagged_sessions_end_with_what_to_do_on_both_surfaces():
    """The flags (a search repeated after a compaction, a session that never searched) were listed with
    no word on what to make of them; both surfaces now point to the listing what-if, in the same words."""
    from toolsearch.analysis.sessions import FLAGS_NEXT_WORDS

    text = _sessions_text()
    flagged = text.split("flagged sessions: 2 of 7:\n")[1].split("\n\n")[0].splitlines()
    assert flagged[-1] == FLAGS_NEXT_WORDS
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    assert md_escape(FLAGS_NEXT_WORDS[0].upper() + FLAGS_NEXT_WORDS[1:] + ".") in [c.value for c in at.caption]


def test_sessions_page_has_one_title_when_run_without_the_router():
    """A fresh server's first request (a deep link to /sessions) runs the page script without app.py's
    router, as AppTest's page switch does; the page wrote its title and caption before taking the view,
    which then ran the router (rendering the page) and ended the outer run: the title and caption showed
    twice. Every other page takes the view first."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == ["Sessions"]
    intro = [c.value for c in at.caption if c.value.startswith("What the model actually searched")]
    assert len(intro) == 1, intro


def test_drift_with_missing_servers_says_to_add_their_catalog():
    """Sessions replayed on a catalog that lacks servers they used were warned of with no way forward;
    the warning (command, pages and recommend's stderr alike: CatalogDrift.words) now says to add a
    catalog file with the missing servers. Tools missing from servers the catalog has get no such line."""
    from toolsearch.analysis.sessions import DRIFT_NEXT_WORDS, CatalogDrift

    five = ROOT / "sample_catalogs" / "five-servers.yaml"
    result = run_cli("sessions", str(STORE), "--catalog", str(five), "--variant", "reference")
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("warning: catalog drift:"))
    assert "servers missing: linear, notion" in line and line.endswith(DRIFT_NEXT_WORDS)
    renamed = CatalogDrift(("mcp__slack__slack_send_message",), (), (), 1)
    assert DRIFT_NEXT_WORDS not in renamed.words()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": "five-servers"})
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if "ran on another catalog" in w.value)
    assert warning.endswith(md_escape(DRIFT_NEXT_WORDS)), warning


def test_missed_searches_end_with_what_to_do_on_both_surfaces():
    """Searches that found only tools the session did not call ("get logs of failed CI job" found
    get_pull_request_status; the session then called get_job_logs) were listed with no next step."""
    from toolsearch.analysis.sessions import MISSED_SEARCHES_NEXT_WORDS

    text = _sessions_text()
    missed = text.split("searches that found only tools the session did not call (it called other tools "
                        "afterwards):\n")[1].split("\n\n")[0].splitlines()
    assert "get logs of failed CI job" in missed[2] and missed[-1] == MISSED_SEARCHES_NEXT_WORDS
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    wanted = md_escape(MISSED_SEARCHES_NEXT_WORDS[0].upper() + MISSED_SEARCHES_NEXT_WORDS[1:] + ".")
    assert wanted in [c.value for c in at.caption]
