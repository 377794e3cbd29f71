"""Values the Tuning page cannot use are refused with the reason, and the same reason whether the
text is typed into a field or comes in a link (Streamlit ``AppTest``): a link's bad value names the
value as given (literal, invisible characters shown, cut when long) and what the key expects; a
headroom out of range says so under its field (it kept the old value without a word); a ``--goal``
value pasted whole into *Other goal at some lengths* is read, and its leading goal sent to its field
(without one, the caption names the lengths that take the goal selector's goal)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.ui import common

ROOT = Path(__file__).absolute().parent.parent


def opened(query: dict[str, str] | None = None) -> AppTest:
    """The app opened from a link with ``query`` (its notices show on this first page)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    return at


def tuning(query: dict[str, str] | None = None) -> AppTest:
    at = opened(query)
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def link_notices(query: dict[str, str]) -> list[str]:
    return [str(w.value) for w in opened(query).warning if "ignored" in str(w.value)]


@pytest.mark.parametrize("query,expected", [
    ({"ctx": "-5"}, "The link's value for ctx, “\\-5”, is not valid here and was ignored; the default is used. ctx\\: "
                    "expected one of 8K, 32K, 128K, 200K, 400K, 1M, custom \\(its tokens in ctxn\\=\\) or unknown\\."),
    ({"lengths": "32,000"}, "The link's value for lengths, “32,000”, is not valid here and was ignored; the default is "
                            "used. " + common.md_escape(common.parse_context_lengths("32,000")[1])),
    ({"cap": "1500.5"}, "The link's value for cap, “1500\\.5”, is not valid here and was ignored; the default is used. "
                        "listing\\_max\\_tokens\\: expected a whole number of tokens from 200 to 60,000 \\(values "
                        "outside are clamped\\), got '1500\\.5'\\."),
    ({"headroom": "-5"}, "The link's value for headroom, “\\-5”, is not valid here and was ignored; the default is "
                         "used. Headroom \\(%\\)\\: expected 0 to 1000 \\(%\\), got '\\-5'\\."),
])
def test_a_link_value_is_named_with_what_the_key_expects(query, expected) -> None:
    assert link_notices(query) == [expected]


def test_the_link_and_the_field_refuse_lengths_in_one_message() -> None:
    """The link's notice carries the error the context lengths field shows for the same text."""
    (notice,) = link_notices({"lengths": "32k,,1m"})
    at = tuning()
    at.text_input(key="tuning_contexts").set_value("32k,,1m").run()
    (error,) = [str(e.value) for e in at.error if "Context lengths" in str(e.value)]
    assert notice.endswith(" " + error), (notice, error)


def test_a_long_value_with_a_hidden_character_is_shown_cut_and_marked() -> None:
    value = "32k\u200b," + "9" * 5000
    (notice,) = link_notices({"lengths": value})
    assert "⟨U\\+200B⟩" in notice and "\u200b" not in notice, notice
    assert "(5,005 characters)" in notice.replace("\\", ""), notice
    assert len(notice) < 1000, len(notice)


def test_two_bad_values_are_listed_each_with_its_reason() -> None:
    (notice,) = link_notices({"pct": "abc", "cap": "x"})
    head, items = notice.split("\n\n")
    assert head == "The link's values for pct and cap are not valid here and were ignored; the defaults are used."
    assert items.split("\n") == [
        "- pct, “abc”: threshold\\_pct\\: expected a number of percent from 0 to 100 \\(values outside are "
        "clamped\\), got 'abc'\\.",
        "- cap, “x”: listing\\_max\\_tokens\\: expected a whole number of tokens from 200 to 60,000 \\(values outside "
        "are clamped\\), got 'x'\\."]


@pytest.mark.parametrize("typed", [-5, 5000, 12.345])
def test_a_refused_headroom_is_said_under_its_field(typed) -> None:
    at = tuning({"headroom": "10"})
    at.number_input(key="tuning_headroom").set_value(typed).run()
    assert not at.exception, at.exception
    assert at.number_input(key="tuning_headroom").value == 10
    said = [str(w.value) for w in at.warning if "Headroom" in str(w.value)]
    assert said == [common.md_escape(common.headroom_error(f"{typed:g}")[:-1] + "; the headroom stays 10%.")], said
    assert any("with 10% headroom" in str(m.delta) for m in at.metric), [m.delta for m in at.metric]
    at.run()  # said once: the next run no longer shows it
    assert not [w for w in at.warning if "Headroom" in str(w.value)]


def test_a_headroom_in_range_is_used_without_a_word() -> None:
    at = tuning()
    at.number_input(key="tuning_headroom").set_value(25).run()
    assert at.number_input(key="tuning_headroom").value == 25
    assert not [w for w in at.warning if "Headroom" in str(w.value)]
    assert any("with 25% headroom" in str(m.delta) for m in at.metric), [m.delta for m in at.metric]


@pytest.mark.parametrize("goal", ["names", "full"])
def test_a_pasted_goal_option_is_read_and_its_leading_goal_sent_to_its_field(goal) -> None:
    at = tuning({"catalog": "five-servers", "lengths": "32k,128k,200k,1m", "goal": goal})
    at.text_input(key="tuning_length_goals").set_value("--goal names,128k=full").run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error], [e.value for e in at.error]
    where = "which holds it" if goal == "names" else "which holds full: choose names there to use it"
    assert common.md_escape(
        f"Other goals: read as 128k=full. The leading goal, names, is the goal of every other length: it belongs in "
        f"“Goal (all other lengths)”, {where}.") in [str(c.value) for c in at.caption]
    if goal == "names":  # the items are used: 128K gets its own goal
        assert common.md_escape("Goal: every server at names or better at 32K, 200K and 1M; every tool with its "
                                "short description (form full) at 128K.") in [str(c.value) for c in at.caption]


@pytest.mark.parametrize("pasted, said", [
    ("--goal 200k=full", "Other goals: read as 200k=full. It has no goal before its LENGTH=GOAL items, so the other "
                         "lengths, 32K, 128K and 1M, take the goal in “Goal (all other lengths)”, names."),
    ("--goal=32k=full,128k=full,200k=names,1m=names",
     "Other goals: read as 32k=full, 128k=full, 200k=names, 1m=names. It gives every listed length a goal of its own, "
     "so “Goal (all other lengths)” is not used."),
])
def test_a_pasted_goal_option_without_a_leading_goal_says_what_the_other_lengths_take(pasted, said) -> None:
    """``--goal 200k=full`` pasted whole: ``recommend`` refuses it for lengths it does not name, the
    page gives them the goal selector's goal; the caption says so, naming them. It was used without
    a word."""
    at = tuning({"catalog": "five-servers", "lengths": "32k,128k,200k,1m", "goal": "names"})
    at.text_input(key="tuning_length_goals").set_value(pasted).run()
    assert not at.exception, at.exception
    assert not [e.value for e in at.error], [e.value for e in at.error]
    assert common.md_escape(said) in [str(c.value) for c in at.caption], [str(c.value) for c in at.caption]
    typed = tuning({"catalog": "five-servers", "lengths": "32k,128k,200k,1m", "goal": "names"})
    typed.text_input(key="tuning_length_goals").set_value(pasted[len("--goal "):]).run()
    assert not [str(c.value) for c in typed.caption if "Other goals" in str(c.value)]  # typed as the field takes them


def test_the_command_line_refuses_the_same_goal_naming_the_lengths_without_one() -> None:
    for command in ("recommend", "check"):
        done = run_cli(command, str(ROOT / "sample_catalogs" / "five-servers.yaml"), "--context-lengths",
                       "32k,128k,200k,1m", "--goal", "200k=full")
        assert done.returncode == 2, done.stdout
        assert done.stderr == (f"toolsearch: error: {command}: --goal: no goal for 32K, 128K, 1M: name every length "
                               "(e.g. 32k=names,200k=full) or put one goal first for the lengths not named (e.g. "
                               "names,200k=full)\n"), done.stderr


def test_a_goal_alone_says_where_it_belongs() -> None:
    at = tuning()
    at.text_input(key="tuning_length_goals").set_value("--goal names").run()
    assert [str(e.value) for e in at.error] == [common.md_escape(
        "Other goals: 'names' has no length; write LENGTH=GOAL items such as 200k=full (the goal selector, Goal "
        "(all other lengths), sets the other lengths).")]


@pytest.mark.parametrize("catalog", ["five-servers", "team-workspace"])
def test_the_lists_less_advice_gives_items_the_field_takes(catalog) -> None:
    """The "lists less than the default settings" warning says the goal that keeps them in words, with
    the items of *Other goal at some lengths* (or, where every length needs the same goal, that goal for
    *Goal (all other lengths)*), never the command line's ``--goal``; entered in their field, they are
    read without an error and the warning goes."""
    at = tuning({"catalog": catalog, "lengths": "32k,128k,200k,1m", "goal": "names"})
    (warning,) = [str(w.value) for w in at.warning if "lists less than" in str(w.value)]
    assert ("stricter goal (Other goal at some lengths)" in warning
            or "stricter goal (Goal (all other lengths))" in warning), warning
    assert "--goal" not in warning and "\\-\\-goal" not in warning, warning
    plain = warning.replace("\\", "")
    if "Goal (all other lengths): " in plain:  # the same goal at every length: the goal selector alone
        goal = plain.split("Goal (all other lengths): ")[1].split(")")[0]
        assert goal == "full", plain
        at.selectbox(key="tuning_multi_goal").set_value(goal).run()
    else:
        items = plain.split("Other goal at some lengths: ")[1].split(")")[0]
        assert "=full" in items and common.parse_length_goals(items)[1] is None, items
        at.text_input(key="tuning_length_goals").set_value(items).run()
    assert not at.exception and not [e.value for e in at.error], [e.value for e in at.error]
    assert not [w for w in at.warning if "lists less than" in str(w.value)], [w.value for w in at.warning]
