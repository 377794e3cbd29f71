"""The Sessions page (Streamlit ``AppTest``): the sample Hermes store replayed against the sidebar's
catalog, compared with the engine's own answers (``toolsearch.analysis.sessions``) for the same settings.

As in the other page tests, sidebar settings are given through the URL query string and the
page's own widgets are set by key (see tests/test_app_tuning_report.py for why).
"""

from __future__ import annotations


import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables, run_cli
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.wording import CALLED_LISTED_COLUMN, share_cell
from toolsearch.ui.common import md_escape
from toolsearch.engine import constants as C
from toolsearch.engine.config import parse_config
from toolsearch.analysis.evaluation import DEFAULT_VARIANTS
from toolsearch.live.guard import launch_token
from toolsearch.analysis.sessions import (aggregates, called_listed_at, catalog_drift, listing_what_if, load_sessions, replay,
                                          summary)

ROOT = Path(__file__).absolute().parent.parent
#: One OpenAI conversation that calls a deferred tool through tool_call without ever searching.
FLAGGED_OPENAI = [
    {"role": "user", "content": "post to #release"},
    {"role": "assistant", "content": "", "tool_calls": [{"id": "a", "type": "function", "function": {
        "name": "tool_call", "arguments": json.dumps({"name": "mcp__slack__slack_post_message",
                                                      "arguments": {"channel_id": "C1", "text": "out"}})}}]},
    {"role": "tool", "tool_call_id": "a", "content": "{\"ok\": true}"},
]
SAMPLES = ROOT / "sample_sessions"
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


def open_page(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    return at


#: A column only each table has.
TABLES = {"sessions_variant_table": "outcome of", "sessions_failed": "gate term", "sessions_whatif": "searches just before",
          "sessions_whatif_smallest": "smallest budget",
          "sessions_models": "searches per session", "sessions_models_events": "failed calls",
          "sessions_timeline": "event",
          "sessions_at_lengths": "called tools listed by name", "sessions_flags": "flags"}


def frame(at: AppTest, key: str):
    """The literal table ``key`` (cell texts as shown: ``1,280``, ``yes``)."""
    table = literal_tables(at).get(key)
    if table is None:
        raise AssertionError(f"no table {key!r}")
    assert TABLES[key] in table.columns
    return table


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}: {[m.label for m in at.metric]}")


def engine(ctx: int | None = 200_000, query: dict[str, str] | None = None):
    inspector = inspector_of([CATALOG])
    config = parse_config({"threshold_pct": float((query or {}).get("pct", C.THRESHOLD_PCT_DEFAULT))})
    loaded = load_sessions([SAMPLES / "state.db"])
    rep = replay(loaded.sessions, inspector, config, None)
    return inspector, config, loaded, rep


def test_sample_store_recorded_vs_replayed():
    at = open_page()
    inspector, config, loaded, rep = engine()
    data = summary(loaded.sessions, rep)
    assert metric(at, "Sessions") == "7"
    assert metric(at, "Searches (one per query)") == str(data["searches"])
    assert metric(at, "Recorded empty") == str(data["recorded"]["empty"])
    table = frame(at, "sessions_variant_table")
    assert list(table["outcome of"]) == ["recorded", *[f"replayed: {v}" for v in
                                                       dict.fromkeys(["reference", *DEFAULT_VARIANTS])]]
    for name, d in data["replay"].items():
        row = table[table["outcome of"] == f"replayed: {name}"].iloc[0]
        assert (row["empty (searches)"], row["found a called tool (searches)"], row["drift (searches)"]) == (
            f"{d['empty']:,}", f"{d['found_called']:,}", f"{d['drift']:,}")
    failed = frame(at, "sessions_failed")
    assert list(failed["query"]) == ["grafana dashboard latency", "page the on-call engineer",
                                     "rotate kubernetes secret"]
    assert list(failed["gate term"]) == ["latency → latenc", "engineer → engin", "rotate → rotat"]


def test_per_model_empty_searches_are_shares_named_apart_from_the_empty_counts():
    """The Recorded vs replayed tab counts empty searches; the Per model tab shows the share of each
    model's searches that came back empty, as a percentage under its own name."""
    at = open_page()
    inspector, config, loaded, rep = engine()
    per_model = aggregates(loaded.sessions, rep)["per_model"]
    table = frame(at, "sessions_models")
    assert "empty (recorded)" not in table.columns
    for _, row in table.iterrows():
        f = per_model[row["model"]]
        assert row["searches empty (recorded, %)"] == f"{f['recorded_empty_rate']:.1%}"
        assert row["searches empty (reference, %)"] == f"{f['replay_empty_rate']['reference']:.1%}"
    assert list(table["searches empty (recorded, %)"]) == ["50.0%", "0.0%", "28.6%"]
    assert any(c.value.startswith("searches empty (%): the share of the model's searches") for c in at.caption)


def test_listing_what_if_follows_the_sidebar_settings():
    at = open_page({"pct": "8"})
    inspector, _, loaded, _ = engine()
    config = parse_config({"threshold_pct": 8.0})
    expected = listing_what_if(loaded.sessions, inspector, config, 200_000)
    table = frame(at, "sessions_whatif")
    assert list(table["tool"]) == [w.tool for w in expected]
    assert list(table["context length"]) == [length_label(w.context_length) for w in expected]
    assert list(table["listed"]) == ["yes" if w.listed else "no" for w in expected]
    # at 8% of 16,000 tokens the grafana tools are listed by name; at the default 5% they are not
    grafana = table[table["tool"] == "mcp__grafana__search_dashboards"].iloc[0]
    assert (grafana["listed"], grafana["budget (tokens)"]) == ("yes", "1,280")


def test_timeline_masks_secrets_and_shows_drift():
    at = open_page()
    at.selectbox(key="sessions_pick").set_value("20261130_101200_b2").run()
    assert not at.exception
    timeline = frame(at, "sessions_timeline")
    details = list(timeline["detail"])
    assert details[0] == "page the on-call engineer"
    assert f'"api_token": "{C.SECRET_MASK}"' in details[2]
    assert "glsa_" not in " ".join(map(str, timeline.to_numpy().ravel()))
    assert timeline.iloc[0]["reference"] == "(empty: the gate term 'engineer → engin' occurs in no tool)"
    at.selectbox(key="sessions_pick").set_value("20261128_170000_d4").run()
    row = frame(at, "sessions_timeline").iloc[0]
    # recorded on the catalog it is replayed on: the reference returns what was recorded, no drift
    matches = ("mcp__slack__slack_post_message, mcp__slack__slack_update_message, mcp__slack__slack_post_ephemeral, "
               "mcp__slack__slack_reply_to_thread, mcp__slack__slack_schedule_message")
    assert (row["recorded"], row["reference"]) == (matches, matches)
    # the session line counts in words: "1 round trip", never "1 round trips"
    line = next(t.value for t in at.text if "round trip" in t.value and "messages" in t.value)
    assert "· 5 messages · 1 round trip · title: Release note" in line, line
    # its context length as every surface labels one ("200K"), not written in full
    [d4] = [s for s in load_sessions([SAMPLES / "state.db"]).sessions if s.id == "20261128_170000_d4"]
    assert d4.context_length and f"· context length: {length_label(d4.context_length)} ·" in line, line
    assert f"{d4.context_length:,}" not in line, line


def test_other_sample_format_and_variant_choice():
    at = open_page()
    at.selectbox(key="sessions_sample").set_value("anthropic-messages.json").run()
    at.multiselect(key="sessions_variants").set_value(["no-gate"]).run()
    assert not at.exception
    table = frame(at, "sessions_variant_table")
    assert list(table["outcome of"]) == ["recorded", "replayed: reference", "replayed: no-gate"]
    assert metric(at, "Sessions") == "7"


def test_a_browser_the_app_cannot_place_needs_the_token_to_read_a_local_path(tmp_path):
    # AppTest sends no request headers, so the page cannot tell where the browser is: it treats
    # it as a browser on another machine (fails closed), as one reaching an exposed app would be.
    secret = tmp_path / "export.jsonl"
    secret.write_text((SAMPLES / "hermes-export.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    assert any("not on the machine that runs the app" in w.value for w in at.warning)
    at.text_input(key="sessions_path").set_value(str(secret)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == ["Refused: nothing was read. A browser that is not on this machine needs "
                                           "the launch token printed in the app's terminal."]
    assert "sessions_path_read" not in at.session_state and not at.metric
    at.text_input(key="sessions_token").set_value("not-the-token").run()
    at.button(key="sessions_read").click().run()
    assert "sessions_path_read" not in at.session_state and not at.metric
    # A missing file is refused the same way: the page is no oracle for which files exist.
    at.text_input(key="sessions_path").set_value(str(tmp_path / "missing.db")).run()
    at.button(key="sessions_read").click().run()
    assert not any("no such session file" in e.value for e in at.error)
    at.text_input(key="sessions_path").set_value(str(secret)).run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert metric(at, "Sessions") == "7"


def test_local_path_is_read_only_on_request(tmp_path):
    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    assert not at.exception
    assert any("Type the path" in i.value for i in at.info)
    at.text_input(key="sessions_token").set_value(launch_token()).run()  # AppTest counts as another machine
    at.text_input(key="sessions_path").set_value(str(tmp_path / "missing.db")).run()
    assert not at.error  # nothing is read before Read is pressed
    at.button(key="sessions_read").click().run()
    assert [e.value for e in at.error] == [md_escape(f"{tmp_path / 'missing.db'}: no such session file")]
    bad = tmp_path / "broken.jsonl"
    bad.write_text((SAMPLES / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()[0] + "\n{oops\n",
                   encoding="utf-8")
    at.text_input(key="sessions_path").set_value(str(bad)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception
    assert metric(at, "Sessions") == "1"
    assert [w.value for w in at.warning if "launch token" not in w.value] == [md_escape(f"Skipped: {bad}:2: not valid JSON (Expecting property name "
                                                       "enclosed in double quotes); line skipped")]


def test_export_of_labeled_queries_is_an_eval_file():
    at = open_page()
    buttons = {b.proto.label: b for b in at.get("download_button")}
    assert "Download labeled queries (YAML)" in buttons
    caption = " ".join(c.value for c in at.caption)
    assert "9 labeled tasks" in caption


def test_what_if_at_the_lengths_being_tuned_follows_the_sidebar_and_the_input():
    # sidebar: 16K context, 3% threshold, cap 1,200 tokens
    at = open_page({"ctx": "custom", "ctxn": "16000", "pct": "3", "cap": "1200"})
    assert at.text_input(key="sessions_lengths").value == "16k, 32k, 200k, 1m"
    at.sidebar.selectbox(key="ctx_choice").set_value("128K").run()  # not edited yet: follows the sidebar
    # the sample sessions ran at 16K and 200K: those stay, shortest first
    assert at.text_input(key="sessions_lengths").value == "16k, 32k, 128k, 200k, 1m"
    at.sidebar.selectbox(key="ctx_choice").set_value("custom").run()
    inspector, _, loaded, _ = engine()
    config = parse_config({"threshold_pct": 3.0, "listing_max_tokens": 1200})
    expected = called_listed_at(loaded.sessions, inspector, config, [16_000, 32_000, 200_000, 1_000_000])
    table = frame(at, "sessions_at_lengths")
    assert list(table["context length"]) == ["16K", "32K", "200K", "1M"]
    assert list(table["called tools listed by name"]) == [share_cell(c.called_listed, c.called_total) for c in expected]
    assert list(table["searches saved"]) == [str(c.searches_saved) for c in expected]
    assert list(table["budget (tokens)"]) == [f"{c.budget:,}" for c in expected]
    # at 16K and 3% the budget is 480 tokens: not every called tool is named; the cap binds higher up
    assert expected[0].budget == 480 and expected[0].called_listed < expected[0].called_total
    assert expected[-1].budget == 1200
    sentence = next(t.value for t in at.text if t.value.startswith("At 16K:"))
    assert sentence == (f"At 16K: the listing names {expected[0].called_listed} of the "
                        f"{expected[0].called_total} deferred tools your models called; "
                        f"{expected[0].searches_saved} searches saved.")
    # a list typed by the user is kept, and a bad entry is named
    at.text_input(key="sessions_lengths").set_value("8k, 1m").run()
    assert list(frame(at, "sessions_at_lengths")["context length"]) == ["8K", "1M"]
    # kept across pages
    at.switch_page("toolsearch/ui/costs.py").run()
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert at.text_input(key="sessions_lengths").value == "8k, 1m"
    at.text_input(key="sessions_lengths").set_value("8k, lots").run()
    # the Tuning page's parser and words: the range, and the entry as typed
    assert any(e.value.replace("\\", "") == ("Context lengths: expected a positive number of tokens from 1 to "
                                              "10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown', got 'lots'.")
               for e in at.error), [e.value for e in at.error]
    # and its limit on how many lengths one list may name
    at.text_input(key="sessions_lengths").set_value(", ".join(f"{n}k" for n in range(1, 200))).run()
    assert any("at most" in e.value and "lengths" in e.value for e in at.error), [e.value for e in at.error]


def test_replay_drift_warning_names_the_difference():
    at = open_page({"catalog": "cloudflare-flat"})
    inspector = inspector_of([ROOT / "sample_catalogs" / "cloudflare-flat.yaml"])
    drift = catalog_drift(load_sessions([SAMPLES / "state.db"]).sessions, inspector)
    assert drift.missing_servers == ("github", "grafana", "linear", "notion", "slack")
    warning = next(w.value for w in at.warning if "ran on another catalog" in w.value)
    assert md_escape("servers missing: github, grafana, linear, notion, slack") in warning
    assert md_escape(f"({', '.join(drift.missing_tools[:8])}, … ({len(drift.missing_tools) - 8} more))") in warning
    assert md_escape(f"{len(drift.missing_tools)} tools the sessions used are not in “Cloudflare flat API”") in warning
    # the sessions' own catalog, the app's default: a first-time user opens the page with no drift
    at = open_page()
    assert not [w.value for w in at.warning if "ran on another catalog" in w.value]
    assert catalog_drift(load_sessions([SAMPLES / "state.db"]).sessions, inspector_of([CATALOG])).drifted is False


def test_a_drifted_search_is_marked_in_the_timeline_and_warned_of():
    """A session recorded before Slack's server renamed slack_send_message to slack_post_message
    (tests/data/renamed-tool-sessions.json): the warning names the tool, the timeline marks the drift."""
    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(ROOT / "tests" / "data" / "renamed-tool-sessions.json")).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if "ran on another catalog" in w.value)
    assert md_escape("1 tool the sessions used is not in “Team workspace” (mcp__slack__slack_send_message)") in warning
    row = frame(at, "sessions_timeline").iloc[0]
    assert row["recorded"] == "mcp__slack__slack_send_message"
    assert row["reference"] == "mcp__slack__slack_update_message, mcp__grafana__update_dashboard · drift"


def test_flags_tab_lists_flagged_sessions(tmp_path):
    transcript = tmp_path / "flagged.json"
    transcript.write_text(json.dumps(FLAGGED_OPENAI), encoding="utf-8")
    at = open_page()
    # AppTest cannot upload: the file is read through the path input, with the launch token
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(transcript)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert metric(at, "Flagged sessions") == "1"
    table = frame(at, "sessions_flags")
    assert len(table) == 1 and table.iloc[0]["flags"] == "deferred but never searched"
    assert md_escape("Flagged: deferred but never searched") in [w.value for w in at.warning]



def test_listing_what_if_caption_states_the_steps_its_smallest_settings_use():
    """The caption over the per-tool what-if says at what resolution the smallest settings are given;
    the table's values must be on that grid (0.1 % and 1 token), e.g. 0.8 % and 1,473 tokens."""
    at = open_page()
    caption = next(c.value for c in at.caption if "Smallest settings" in c.value)
    table = frame(at, "sessions_whatif_smallest")
    pcts = [float(p) for p in table["threshold_pct"] if p not in ("", "—", "None")]
    caps = [int(str(c).replace(",", "")) for c in table["listing_max_tokens"] if c not in ("", "—", "None")]
    assert any(round(p * 2) != p * 2 for p in pcts), pcts  # off the 0.5 grid: the finer grid is in use
    assert any(c % 100 for c in caps), caps
    assert "0.5 steps" not in caption and "100 steps" not in caption, caption
    assert "0.1" in caption and "1 token" in caption, caption


def test_the_listing_saving_has_the_tuning_page_name_not_the_pin_name():
    """The tool_search calls a listing makes unnecessary are "searches saved" on the Tuning page;
    "round trips saved" there is the pin what-if's other figure (search + describe per first use).
    The Sessions page shows the first figure, so it uses the first name."""
    at = open_page()
    table = frame(at, "sessions_at_lengths")
    assert "searches saved" in table.columns and "round trips saved" not in table.columns
    assert not [t.value for t in at.text if t.value.startswith("At ") and "round trip" in t.value]


def test_what_if_asks_at_the_lengths_typed_on_the_tuning_page():
    """The Tuning page's context-length list (kept across pages and in the link) is what the user is
    tuning: the Sessions what-if starts there (with the sidebar's length and the sessions' own, 16K
    and 200K), not at a fixed 32K/200K/1M."""
    at = open_page({"lengths": "64k, 128k"})
    assert at.text_input(key="sessions_lengths").value == "16k, 64k, 128k, 200k"
    inspector, config, loaded, _ = engine()
    expected = called_listed_at(loaded.sessions, inspector, config, [16_000, 64_000, 128_000, 200_000])
    table = frame(at, "sessions_at_lengths")
    assert list(table["context length"]) == ["16K", "64K", "128K", "200K"]
    assert list(table["called tools listed by name"]) == [share_cell(c.called_listed, c.called_total) for c in expected]
    # the Tuning page's untouched default list leaves the usual 32K / 200K / 1M, with the sessions' 16K
    assert open_page().text_input(key="sessions_lengths").value == "16k, 32k, 200k, 1m"


def test_what_if_asks_at_the_lengths_the_sessions_ran_at():
    """The sample store's sessions ran at 16K and 200K (one recorded none): the what-if's default list
    holds both, so it answers what those sessions would have seen, and one line says why. A list the
    user typed is kept."""
    at = open_page({"ctx": "1M"})
    assert at.text_input(key="sessions_lengths").value == "16k, 32k, 200k, 1m"
    assert "Your sessions ran at 16K, 200K: the list includes those lengths, shortest first." in [
        c.value for c in at.caption]
    inspector, config, loaded, _ = engine()
    expected = called_listed_at(loaded.sessions, inspector, config, [16_000])[0]
    assert expected.called_listed < expected.called_total  # at 16K the listing misses some called tools
    sentence = next(t.value for t in at.text if t.value.startswith("At 16K:"))
    assert sentence.startswith(f"At 16K: the listing names {expected.called_listed} of the "
                               f"{expected.called_total} deferred tools")
    at.text_input(key="sessions_lengths").set_value("1m").run()
    at.sidebar.selectbox(key="ctx_choice").set_value("8K").run()
    assert at.text_input(key="sessions_lengths").value == "1m"


def test_the_session_picker_shows_invisible_characters_of_session_ids(tmp_path):
    """A Hermes store (Hermes' own writer) whose only session id holds a zero-width space: the
    Timeline's session picker shows it as a marker, as every table and the CLI do, and the source
    line counts "1 session"."""
    from tests.test_sessions import write_store

    db = write_store(tmp_path, {"sessions": [{"id": "s-deploy\u200b-1", "model": "openai/gpt-5-mini",
                                              "messages": [{"role": "user", "content": "hi"}]}]})
    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    at.text_input(key="sessions_path").set_value(str(db)).run()
    at.button(key="sessions_read").click().run()
    assert not at.exception, at.exception
    assert at.selectbox(key="sessions_pick").options == ["s-deploy⟨U+200B⟩-1"]
    assert any(t.value == f"{db}: 1 session on catalog Team workspace (178 deferred tools)" for t in at.text)


def test_the_sample_file_help_counts_the_sessions_each_file_holds():
    """The help named "six sessions" while state.db holds seven and claude-code.jsonl three."""
    at = open_page()
    counts = {p.name: len(load_sessions([p]).sessions) for p in sorted(SAMPLES.iterdir())
              if p.suffix in (".db", ".json", ".jsonl")}
    help_text = at.selectbox(key="sessions_sample").help
    assert "state.db (7)" in help_text and "claude-code.jsonl (3)" in help_text
    for name, n in counts.items():
        assert f"{name} ({n})" in help_text


def test_a_local_path_to_a_folder_or_a_device_is_named_as_such(tmp_path):
    """A path to a folder or to /dev/zero was answered "no such session file": it exists, and the
    message sent the user looking for a typo. The page now says what the path is, as the command
    line does."""
    at = open_page()
    at.radio(key="sessions_source").set_value("A file on this machine").run()
    at.text_input(key="sessions_token").set_value(launch_token()).run()
    (tmp_path / "loop.db").symlink_to("loop.db")
    for path, what in ((tmp_path, "a folder"), (Path("/dev/zero"), "not a regular file (a pipe, a device or a socket)"),
                       (tmp_path / "loop.db", "a symbolic link that loops (it leads back to itself, directly or "
                                              "through other links)")):
        at.text_input(key="sessions_path").set_value(str(path)).run()
        at.button(key="sessions_read").click().run()
        assert not at.exception
        assert [e.value for e in at.error] == [md_escape(f"{path}: {what}; expected a session file")]


def test_timeline_shows_the_reference_and_the_variants_asked_for():
    """One column per replayed variant made the Timeline 15 columns wide: it shows the reference
    beside the recorded matches, and each variant picked (of those replayed) after it."""
    at = open_page()
    timeline = frame(at, "sessions_timeline")
    assert list(timeline.columns) == ["step", "event", "detail", "recorded", "reference"]
    picker = at.multiselect(key="sessions_timeline_variants")
    assert picker.options == list(dict.fromkeys(["reference", *DEFAULT_VARIANTS])) and picker.value == ["reference"]
    picker.set_value(["reference", "no-gate", "agent"]).run()
    assert not at.exception
    assert list(frame(at, "sessions_timeline").columns) == ["step", "event", "detail", "recorded", "reference",
                                                            "no-gate", "agent"]
    at.multiselect(key="sessions_variants").set_value(["no-gate"]).run()  # agent no longer replayed
    assert not at.exception
    assert list(frame(at, "sessions_timeline").columns)[4:] == ["reference", "no-gate"]


def test_per_model_figures_are_the_numbers_the_cli_prints():
    """Searches per session and round trips per called tool: one figure, one text, on the page and in
    ``toolsearch sessions`` (the page showed three decimals where the CLI printed two, under another name)."""
    from conftest import run_cli

    at = open_page()
    table = frame(at, "sessions_models")
    text = run_cli("sessions", str(SAMPLES / "state.db"), "--catalog", str(CATALOG), "--variant", "reference")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.split("per model:\n")[1].split("\n\n")[0].splitlines()
    header = lines[0]
    assert "searches per session" in header and "round trips per called tool" in header
    by_model = {line.split()[0]: line.split() for line in lines[2:]}
    assert len(by_model) == len(table) > 1
    for _, row in table.iterrows():
        cells = by_model[row["model"]]  # model, sessions, searches, per session, 2 shares, round trips
        assert (cells[3], cells[6]) == (row["searches per session"], row["round trips per called tool"])
    assert any("." in v and len(v.split(".")[1]) == 2 for v in table["searches per session"])
    # the caption names the tools the figure divides by as Session.bridged_tools takes them: through
    # tool_call, or called directly after a search (it said "called through the bridge")
    captions = " ".join(c.value for c in at.caption)
    assert "per distinct tool the model called through tool_call, or directly after its first search" in captions
    assert "called through the bridge." not in captions


def test_called_tools_listed_by_name_is_one_name_and_one_count_on_both_pages():
    """The Sessions page, the Tuning page and ``toolsearch sessions`` show the same count under the same
    column name, written the same way (the Tuning page called it "called tools named"; the Sessions page
    split it over two columns, "called tools listed by name" and "called tools", and the CLI headed it
    "called tools listed")."""
    at = open_page()
    sessions = frame(at, "sessions_at_lengths")
    # one column says "listed/called", the figure and the way the Tuning page and `sessions` write it
    assert "called tools" not in sessions.columns
    on_sessions = {row["context length"]: row[CALLED_LISTED_COLUMN] for _, row in sessions.iterrows()}
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    assert not at.exception, at.exception
    tuning = literal_tables(at)["tuning_multi_table"]
    assert CALLED_LISTED_COLUMN in tuning.columns and "called tools named" not in tuning.columns
    # the Sessions table, the Tuning table and the CLI write each length as recommend does (32K)
    on_tuning = {row["context length"]: row[CALLED_LISTED_COLUMN] for _, row in tuning.iterrows()}
    common_lengths = set(on_sessions) & set(on_tuning)
    assert {"200K", "1M"} <= common_lengths, (on_sessions, on_tuning)
    assert {c: on_sessions[c] for c in common_lengths} == {c: on_tuning[c] for c in common_lengths}
    text = run_cli("sessions", str(SAMPLES / "state.db"), "--catalog", str(CATALOG), "--variant", "reference",
                   "--context-lengths", ",".join(c.lower() for c in on_sessions))
    assert text.returncode == 0, text.stderr
    lines = text.stdout.split("called tools already listed by name, at the current threshold_pct and "
                              "listing_max_tokens:\n")[1].split("\n\n")[0].splitlines()
    assert lines[0].split()[-7:] == [*CALLED_LISTED_COLUMN.split(), "searches", "saved"], lines[0]
    # the form cell may be two words ("mixed 6/9"): the count is the second cell from the right
    # the table's rows, not the next-step line under it (called_unnamed_next_words)
    on_cli = {line.split()[0]: line.split()[-2] for line in lines[2:] if not line.startswith("called tools not named")}
    assert on_cli == on_sessions and all("/" in cell for cell in on_cli.values()), (on_cli, on_sessions)


def test_the_session_picker_lists_a_store_and_its_export_oldest_first_and_says_so() -> None:
    from toolsearch.analysis.sessions import SESSION_ORDER_WORDS, load_sessions

    store_order = [s.id for s in load_sessions([ROOT / "sample_sessions" / "state.db"]).sessions]
    at = open_page()
    for sample in ("state.db", "hermes-export.jsonl"):  # Hermes writes its export newest first
        at.selectbox(key="sessions_sample").set_value(sample).run()
        assert not at.exception, at.exception
        picker = at.selectbox(key="sessions_pick")
        assert picker.options == store_order, sample
        assert picker.help == f"Listed {SESSION_ORDER_WORDS}."


def test_per_model_table_reads_in_full_at_1024_px():
    """The Per model tab's first table holds the columns ``toolsearch sessions`` prints per model
    but its last (seven, which fit across the page at 1024 px); the context lengths, failed calls and
    compactions follow in a table of their own. In one table of nine columns the last ones sat behind a sideways scroll, "compactions"
    cut to "comp"."""
    at = open_page()
    _, _, loaded, rep = engine()
    per_model = aggregates(loaded.sessions, rep)["per_model"]
    table = frame(at, "sessions_models")
    text = run_cli("sessions", str(SAMPLES / "state.db"), "--catalog", str(CATALOG), "--variant", "reference")
    assert text.returncode == 0, text.stderr
    header = text.stdout.split("per model:\n")[1].splitlines()[0]
    assert list(table.columns) == [c for c in table.columns if c in header] and len(table.columns) == 7
    events = frame(at, "sessions_models_events")
    # the context lengths each model ran at (the command's last per-model column) lead the second table
    assert list(events.columns) == ["model", "context lengths", "failed calls", "compactions"]
    assert list(events["model"]) == list(table["model"])
    for _, row in events.iterrows():
        f = per_model[row["model"]]
        assert (row["failed calls"], row["compactions"]) == (str(f["failed_calls"]), str(f["compactions"]))
