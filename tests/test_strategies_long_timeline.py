"""A long ``strategies --events`` timeline grows linearly. Each step's state held a copy of the
strategy's whole conversation, and the step's tokens were a sum over it (three times a step): a
conversation that keeps growing (searches, describes, loaded definitions, no compaction) made the
timeline grow with the square of the events (5,000 events: 15 s). Each state now holds a view of the
first pieces of one shared, append-only list, with its token total kept as the pieces come.

No timing here: the tests count what the states hold and check that the figures are the same as
adding the pieces up."""

from __future__ import annotations

import gc
import sys

from conftest import obj
from toolsearch.analysis.strategies import (ANTHROPIC, LOADED, TIERED, Event, Piece, StrategyModel, StrategySettings,
                                            TOOL_FORMS)
from toolsearch.engine.catalog import catalog_from_data
from toolsearch.engine.inspector import Inspector

CATALOG = {"name": "Small", "servers": [
    {"name": "github", "tools": [
        {"name": "create_issue", "description": "Open a new issue in a repository.", "inputSchema": obj("title")},
        {"name": "list_issues", "description": "List issues in a repository.", "inputSchema": obj("repo")},
        {"name": "search_code", "description": "Search code across repositories.", "inputSchema": obj("q")}]},
    {"name": "slack", "tools": [
        {"name": "post_message", "description": "Post a message to a channel.", "inputSchema": obj("channel")}]},
]}


def model() -> StrategyModel:
    return StrategyModel(Inspector(catalog_from_data(CATALOG, "small.yaml")), None, StrategySettings())


def held_bytes(states) -> int:
    """Bytes of the containers the states' conversations hold (each counted once, pieces and their
    strings left out): the conversations' own cost, whatever their type."""
    seen: set[int] = set()
    total = 0
    pending = [state.conversation for state in states]
    while pending:
        item = pending.pop()
        if id(item) in seen or isinstance(item, (Piece, str, int, float, type)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        pending.extend(gc.get_referents(item))
    return total


def test_the_states_of_a_long_timeline_share_their_conversation_instead_of_copying_it():
    n = 1_500
    steps = model().timeline([Event("search", f"issue {i}") for i in range(n)])
    states = [step.state(TIERED) for step in steps]
    assert len(states[-1].conversation) == n  # one tool_search response per search, none dropped
    # A copy per step holds n²/2 piece references (9 MB here); one shared list and a view per step
    # hold a few hundred bytes per step.
    assert held_bytes(states) < 300 * len(states)


def test_each_step_keeps_its_own_conversation_and_its_figures_are_the_pieces_added_up():
    m = model()
    events = [Event("search", "issue"), Event("call", "mcp__github__create_issue"), Event("search", "slack message"),
              Event("describe", ("mcp__github__list_issues",)), Event("remove_server", "slack"),
              Event("search", "post a message"), Event("add_server", "slack"), Event("search", "post a message"),
              Event("compaction"), Event("search", "code")]
    steps = m.timeline(events)
    lengths = [len(step.state(TIERED).conversation) for step in steps]
    assert lengths == [0, 1, 1, 2, 3, 3, 4, 4, 5, 0, 1]  # later steps did not change an earlier one's view
    for step in steps:
        for state in step.states:
            pieces = tuple(state.conversation)
            assert state.conversation == pieces and hash(state.conversation) == hash(pieces)
            assert state.conversation[1:] == pieces[1:] and list(state.conversation[::-1]) == list(pieces[::-1])
            assert state.prompt_tokens == sum(p.tokens for p in state.prefix) + sum(p.tokens for p in pieces)
            assert state.visible_tools == tuple(member for p in (*state.prefix, *pieces) if p.form in TOOL_FORMS
                                                for member in (p.members or ((p.name, p.form),)))
    for before, after in zip(steps, steps[1:]):
        for old, new in zip(before.states, after.states):
            assert new.added_tokens == new.prompt_tokens - old.prompt_tokens
    # removing a server drops its loaded definitions (and only those); the step before keeps them
    loaded = [[p.name for p in step.state(ANTHROPIC).conversation if p.form == LOADED] for step in steps]
    assert loaded[4:9] == [["mcp__github__list_issues", "mcp__slack__post_message"], ["mcp__github__list_issues"],
                           ["mcp__github__list_issues"], ["mcp__github__list_issues"],
                           ["mcp__github__list_issues", "mcp__slack__post_message"]]
