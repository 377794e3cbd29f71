"""The look-alike check finds each name's first twin and number of twins from an index of its group
(:class:`toolsearch.analysis.lint._LookalikeGroup`) instead of comparing every two names of the
group: the same findings as the straightforward comparison, on random small catalogs of look-alike
names (servers given twice, one name on several servers, look-alikes within one server).

Timings are not tested here (benchmarks/scale.py prints them).
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from toolsearch.analysis import lint as L
from toolsearch.engine.catalog import Catalog, Server, Tool

#: Names that read alike in groups: Cyrillic і / а / о, digits for letters, case variants, and
#: Latin letters with diacritics (ordinary spelling, not disguise).
SERVER_NAMES = ("github", "g\u0456thub", "GitHub", "g1thub", "GITHUB", "gith\u00fcb", "slack", "s1ack", "sl\u0430ck",
                "paypal", "paypa1", "PayPal", "p\u0430yp\u0430l")
TOOL_NAMES = ("search", "se\u0430rch", "Search", "SE\u0410RCH", "search1", "searchl", "searchI", "read_file",
              "re\u0430d_file", "read_fi1e", "READ_FILE", "r\u00e9ad_file", "list", "1ist", "Iist", "l\u0456st")


def _catalog(servers: list[tuple[str, list[str]]]) -> Catalog:
    return Catalog(name="look-alikes", servers=tuple(
        Server(name=name, tools=tuple(Tool(name=t, description="Does a thing.") for t in tools))
        for name, tools in servers))


_SERVERS = st.lists(st.tuples(st.sampled_from(SERVER_NAMES), st.lists(st.sampled_from(TOOL_NAMES), max_size=5)),
                    min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(_SERVERS)
def test_indexed_groups_give_the_straightforward_findings(servers) -> None:
    catalog = _catalog(servers)
    assert L.lookalikes(catalog) == L.lookalikes(catalog, _straightforward=True)


def test_the_twin_named_and_the_count_on_a_crafted_catalog() -> None:
    """The first twin in catalog order is named, the others counted; a twin on the finding's own
    server is neither named nor counted."""
    catalog = _catalog([("a", ["search", "se\u0430rch"]), ("b", ["search"]), ("c", ["Search"]), ("d", ["se\u0430rch"])])
    found = {(f.server, f.tool): f.message for f in L.lookalikes(catalog) if f.severity == "error"}
    assert set(found) == {("a", "se\u0430rch"), ("d", "se\u0430rch")}
    assert found["a", "se\u0430rch"].startswith("tool 'se\u0430rch' looks like b's tool 'search' (and 1 more) (")
    assert found["d", "se\u0430rch"].startswith("tool 'se\u0430rch' looks like a's tool 'search' (and 2 more) (")
    assert L.lookalikes(catalog) == L.lookalikes(catalog, _straightforward=True)


def test_a_large_group_of_look_alikes() -> None:
    """One name written with l, 1 and I in every combination (243 names) on servers of two names
    each: every name has twins, as the straightforward comparison finds them."""
    names = ["".join(p) for p in itertools.product("l1I", repeat=5)]
    catalog = _catalog([(f"s{k}", names[2 * k:2 * k + 2]) for k in range(len(names) // 2 + 1)])
    found = L.lookalikes(catalog)
    assert found == L.lookalikes(catalog, _straightforward=True)
    assert len(found) == len(names)
