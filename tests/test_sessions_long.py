"""A session's searches each ask which tools the session called after them
(:meth:`Session.called_after`); each answer read the whole session again, so a long session cost
the square of its length: one Claude Code transcript of 20,000 searches, each followed by a call,
ran ``toolsearch sessions`` for more than five minutes. The answers now come from the calls'
places, found once per session: the same tools in the same order."""

from __future__ import annotations

import random

import pytest

from toolsearch.analysis.sessions import CallEvent, Session, SearchEvent, QueryRecord


class _CountedEvents(tuple):
    """A session's events that count how often they are read from the start."""

    reads = 0

    def __iter__(self):
        type(self).reads += 1
        return super().__iter__()


def _session(events) -> Session:
    return Session("s1", "t.jsonl", "claude-code", "m", None, {}, None, None, len(events), _CountedEvents(events))


def _events(steps_and_names):
    events = []
    for step, name in steps_and_names:
        if name is None:
            events.append(SearchEvent(step, "tool_search", (QueryRecord("q", None),), None, None))
        else:
            events.append(CallEvent(step, name, "direct", {}, None, None))
    return events


def _plain(events, step):
    return tuple(dict.fromkeys(e.name for e in events if isinstance(e, CallEvent) and e.step > step))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_called_after_gives_the_tools_called_later_in_first_call_order(seed):
    rng = random.Random(seed)
    steps, step = [], 0
    for _ in range(300):
        step += rng.choice((0, 1, 1, 2))  # a tool_call of several targets shares its step
        steps.append((step, rng.choice((None, "a", "b", "c", "d", "e"))))
    events = _events(steps)
    session = _session(events)
    for probe in range(-1, step + 2):
        assert session.called_after(probe) == _plain(events, probe)


def test_a_session_read_once_however_many_searches_ask():
    events = _events([(n, None if n % 2 else f"tool_{n % 7}") for n in range(1, 2001)])
    session = _session(events)
    _CountedEvents.reads = 0
    answers = [session.called_after(e.step) for e in events if isinstance(e, SearchEvent)]
    assert _CountedEvents.reads == 1
    assert answers[0] == ("tool_2", "tool_4", "tool_6", "tool_1", "tool_3", "tool_5", "tool_0")
    assert answers[-1] == ("tool_5",)  # step 2000


def test_steps_out_of_order_keep_the_plain_reading():
    events = _events([(5, "a"), (1, None), (3, "b"), (2, "a"), (4, "c")])
    session = _session(events)
    assert [session.called_after(n) for n in range(6)] == [_plain(events, n) for n in range(6)]
    assert session.called_after(1) == ("a", "b", "c")
