"""Names from catalogs, scope files and links in the app's pickers and sentences (Streamlit
``AppTest``): a server or scope name with invisible characters shows them as markers
(``⟨U+200B⟩``), and one with Markdown in it reads literally."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
ZW, RLO = "\u200b", "\u202e"
CATALOG = {"name": "Hostile names", "servers": [
    {"name": "git" + ZW + "hub", "tools": [
        {"name": "create_issue", "description": "Open an issue in a repository.", "inputSchema": {"type": "object"}},
        {"name": "list_repos", "description": "List the repositories of a user.", "inputSchema": {"type": "object"}}]},
    {"name": "**md**" + RLO, "tools": [
        {"name": "post_message", "description": "Post a message to a channel.", "inputSchema": {"type": "object"}}]},
]}
SHOWN = ["**md**⟨U+202E⟩", "git⟨U+200B⟩hub"]


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["scope"] = "sup" + RLO + "port=git" + ZW + "hub"  # a link defines and selects it
    at.session_state["scope_editor_open"] = True
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("hostile.json", json.dumps(CATALOG).encode())]
    at.run()
    assert not at.exception, at.exception
    return at


def test_pickers_show_invisible_characters_in_names_as_markers():
    at = _app()
    scope = at.sidebar.selectbox(key="scope_choice")
    assert scope.options == ["Whole catalog", "sup⟨U+202E⟩port"]
    assert scope.value == "sup" + RLO + "port"  # the value itself is the name as written
    assert at.sidebar.multiselect(key="scope_edit_servers").options == SHOWN
    assert at.sidebar.selectbox(key="scope_remove").options == ["sup⟨U+202E⟩port"]
    scope.set_value("Whole catalog").run()  # the pages below list the servers of the selected scope
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert at.multiselect(key="tuning_except").options == SHOWN
    assert at.multiselect(key="tuning_keep").options == SHOWN
    at.switch_page("toolsearch/ui/harnesses.py").run()
    assert at.multiselect(key="harness_pin_servers").options == SHOWN
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert at.selectbox(key="cmp_b_scope").options == ["Whole catalog", "sup⟨U+202E⟩port"]
    assert not at.exception, at.exception


def test_sentences_that_name_servers_and_scopes_read_literally():
    at = _app()
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    assert any(t.value.startswith("Scope sup⟨U+202E⟩port: ") for t in at.text), [t.value for t in at.text]
    at.sidebar.selectbox(key="scope_choice").set_value("Whole catalog").run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    server = "**md**" + RLO
    at.multiselect(key="tuning_except").set_value([server]).run()
    at.multiselect(key="tuning_keep").set_value([server]).run()
    assert [e.value for e in at.error] == [
        r"\*\*md\*\*⟨U\+202E⟩\: a server cannot both collapse and stay named; remove it from one list\."]


def test_a_link_naming_an_unknown_catalog_shows_its_invisible_characters():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["catalog"] = "team" + RLO + "workspace"
    at.run()
    assert not at.exception, at.exception
    (notice,) = [w.value for w in at.warning if "not a shipped sample" in w.value]
    assert "“team⟨U\\+202E⟩workspace”" in notice and RLO not in notice


def test_the_describe_arguments_show_invisible_characters_in_tool_names():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["names"] = "as-is"  # tool names as the server sent them
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    catalog = {"servers": [{"name": "calc", "tools": [{"name": "ad\u202ed", "description": "Add two numbers."}]}]}
    at.session_state["_upload_store"] = [("calc.json", json.dumps(catalog).encode())]
    at.session_state["search_tab"] = "Describe"
    at.switch_page("toolsearch/ui/search.py").run()
    assert not at.exception, at.exception
    assert '{"names": ["ad⟨U+202E⟩d", "no_such_tool"]}' in [c.value for c in at.code]


def test_why_a_search_found_nothing_shows_invisible_characters_in_the_best_excluded_tool():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["names"] = "as-is"
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    catalog = {"servers": [{"name": "calc", "tools": [{"name": "ad\u202ed", "description": "Add two numbers together."},
                                                       {"name": "sub", "description": "Subtract two numbers."}]}]}
    at.session_state["_upload_store"] = [("calc.json", json.dumps(catalog).encode())]
    at.session_state["search_queries"] = "add banana numbers"
    at.switch_page("toolsearch/ui/search.py").run()
    assert not at.exception, at.exception
    why = [t.value for t in at.text if t.value.startswith("Why: ")]
    assert len(why) == 1 and "best excluded: ad⟨U+202E⟩d (score " in why[0], why


def test_an_uploaded_profile_is_named_literally_in_the_sidebar():
    from toolsearch.engine.profile import DEFAULT_PROFILE_PATH

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["_profile_store"] = ("[**wording**](https://evil.example)\u200b.yaml",
                                          DEFAULT_PROFILE_PATH.read_bytes())
    at.run()
    assert not at.exception, at.exception
    (label,) = [e.label for e in at.sidebar.expander if e.label.startswith("Wording profile")]
    assert label == "Wording profile · `[**wording**](https://evil.example)⟨U+200B⟩.yaml`"



def test_kept_uploaded_catalog_files_are_named_literally_in_the_sidebar():
    """The sidebar's "Kept for this session" line named an uploaded file with its invisible
    characters raw: a right-to-left override showed the rest of the name reversed. Markers, as the
    wording profile's name shows them."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("report" + RLO + "nosj.json", json.dumps(CATALOG).encode())]
    at.run()
    assert not at.exception, at.exception
    (kept,) = [c.value for c in at.sidebar.caption if c.value.startswith("Kept for this session: ")]
    assert kept == r"Kept for this session: report⟨U\+202E⟩nosj\.json", kept

def test_the_scopes_grid_past_twelve_scopes_shows_invisible_characters_in_names():
    from toolsearch.engine.scopes import Scope

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["scopes"] = [Scope("sup" + RLO + "port", ("slack",)),
                                  *(Scope(f"s{i}", ("github",)) for i in range(12))]  # past the matrix's 12 columns
    at.run()
    at.switch_page("toolsearch/ui/scopes.py").run()
    assert not at.exception, at.exception
    grid = next(df.value for df in at.dataframe if list(df.value.columns)[:1] == ["scope"])
    assert list(grid["scope"])[:2] == ["sup⟨U+202E⟩port", "s0"]
    assert not any(RLO in str(cell) for cell in grid.to_numpy().ravel())


def test_tuning_not_named_list_shows_an_invisible_character_in_a_server_name_as_a_marker():
    """The Tuning page's "Not named" list printed the reason with the server's right-to-left
    override raw (it turns the rest of the line around); the exported block below it showed
    ``⟨U+202E⟩``. The list now shows the marker too."""
    catalog = {"name": "Hostile", "servers": [
        {"name": "big" + RLO, "tools": [{"name": f"t{i}", "description": "Does a thing. " * 20,
                                         "inputSchema": {"type": "object"}} for i in range(30)]},
        {"name": "plain", "tools": [{"name": "p", "description": "Plain.", "inputSchema": {"type": "object"}}]}]}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lengths"] = "2k, 32k"
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("hostile.json", json.dumps(catalog).encode())]
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.multiselect(key="tuning_except").set_value(["big" + RLO]).run()
    assert not at.exception, at.exception
    (listed,) = [m.value for m in at.markdown if m.value.startswith("**Not named:**")]
    assert RLO not in listed
    assert listed.replace("\\", "").startswith("**Not named:**\n- big⟨U+202E⟩: may collapse"), listed
    assert "# not named: big⟨U+202E⟩: may collapse" in at.code[0].value


def test_a_newline_in_the_catalog_name_never_starts_a_line_of_its_own():
    """The line that names the catalog (Overview, Strategies, Harnesses, Scopes) is one line: a
    catalog named ``c\\nFAKE …`` shows ``⟨U+000A⟩``, as the command line's catalog line does, instead
    of printing a second line of the uploader's choosing."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["scope"] = "support=github"  # the Scopes page compares sessions only with a scope
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    named = {**CATALOG, "name": "c\nFAKE: 0 servers", "servers": [{**CATALOG["servers"][1], "name": "github"}]}
    at.session_state["_upload_store"] = [("nl.json", json.dumps(named).encode())]
    at.run()
    lines = {}
    for page in ("overview", "strategies", "harnesses", "scopes"):
        at.switch_page(f"toolsearch/ui/{page}.py").run()
        assert not at.exception, (page, at.exception)
        lines[page] = [t.value for t in at.text if t.value.startswith("Catalog: ")]
    assert all(len(found) == 1 and found[0].startswith("Catalog: c⟨U+000A⟩FAKE: 0 servers · ")
               for found in lines.values()), lines


def test_a_link_naming_a_long_unknown_catalog_cannot_fill_the_notice_with_its_own_words():
    # A crafted link's catalog name is quoted in the app's own warning: whole, it read as the app
    # telling the user to re-enter the launch token at the link's address.
    words = ("x” is not a shipped sample.\n\n# Session expired\n\nEnter your launch token again at "
             "https://evil.example/login to keep your servers running.")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["catalog"] = words
    at.run()
    assert not at.exception, at.exception
    (notice,) = [w.value for w in at.warning if "not a shipped sample, so the default" in w.value]
    assert notice.startswith("The link names a catalog “x” is not a shipped sample\\.⟨U\\+000A⟩⟨U\\+000A⟩\\# "
                             f"Session …” ({len(words):,} characters) that is not a shipped sample"), notice
    assert "evil" not in notice and "launch token" not in notice


def test_a_links_scope_name_past_the_link_length_is_not_defined_or_selected():
    """A link defines and selects its scope, whose name becomes the picker's selected label: a
    crafted link could make it a sentence of its own ("Approved for production - ship these
    settings"). A name longer than a link's names may be is left out, with a notice."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    long_name = "Approved by the platform team - ship these settings now"
    at.query_params["scope"] = long_name + "=github"
    at.run()
    assert not at.exception, at.exception
    assert at.sidebar.selectbox(key="scope_choice").options == ["Whole catalog"]
    shown = " ".join(str(w.value) for w in [*at.warning, *at.info, *at.caption])
    assert (f"expected a scope name of at most 40 characters before the \\=, got one of {len(long_name)}" in shown
            and long_name not in shown), shown
    at2 = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at2.query_params["scope"] = "support=github"  # a name of a link's length still is
    at2.run()
    assert at2.sidebar.selectbox(key="scope_choice").value == "support"


def test_a_tool_name_holding_a_lone_surrogate_keeps_the_call_validation_tab():
    """With catalog names as-is, a tool name holding a lone surrogate (a JSON file's "\\ud800") became
    part of the arguments box's widget key, and Streamlit ended the page on it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["names"] = "as-is"
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    catalog = {"servers": [{"name": "calc", "tools": [{"name": "ad\ud800d", "description": "Add two numbers.",
                                                       "inputSchema": {"type": "object",
                                                                       "properties": {"a": {"type": "integer"}}}}]}]}
    at.session_state["_upload_store"] = [("calc.json", json.dumps(catalog).encode())]
    at.session_state["search_tab"] = "Call validation"
    at.switch_page("toolsearch/ui/search.py").run()
    assert not at.exception, at.exception
    assert any("ad⟨U+D800⟩d" in str(s.value) for s in [*at.selectbox, *at.code, *at.markdown, *at.caption]) or any(
        "ad⟨U+D800⟩d" in str(opt) for box in at.selectbox for opt in box.options)
