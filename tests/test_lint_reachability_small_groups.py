"""The reachability probes of a small gate-term group are scored one document at a time in plain
floats, a large group with arrays: both give the answers of one ``index.search`` per probe, and the
lint's findings stay those of the straightforward path, on the shipped catalogs, on a catalog of many
rare gate terms (where the per-group cost of the arrays was most of the probing time) and on one
MCP server configured many times (every tool on many servers, most of them unreachable).

Timings are not tested here (benchmarks/lint.py prints them).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toolsearch.analysis import lint as L
from toolsearch.engine.catalog import Catalog, Server, Tool, load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "sample_catalogs").glob("*.yaml"))


def rare_words_catalog(n_tools: int = 600, seed: int = 0) -> Catalog:
    """Tools named and described with words drawn from a Zipf-like vocabulary three times the tool
    count: most probes have a rare gate term held by a handful of tools, a few a common one."""
    rng = random.Random(f"rare-words:{seed}")
    vocab = sorted({"".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3))
                    for _ in range(n_tools * 3)})
    weights = [1 / (i + 1) for i in range(len(vocab))]
    servers = []
    for s in range(n_tools // 50):
        tools = {}
        for _ in range(50):
            name = "_".join(rng.choices(vocab, weights, k=3))
            tools[name] = Tool(name=name, description=" ".join(rng.choices(vocab, weights, k=8)).capitalize() + ".",
                               input_schema={"type": "object", "properties": {"q": {"type": "string"}}})
        servers.append(Server(name=f"words-{s:02d}", tools=tuple(tools.values())))
    return Catalog(name=f"rare words {n_tools}", servers=tuple(servers))


def copies_catalog(copies: int = 40) -> Catalog:
    """Three small servers, each configured ``copies`` times, descriptions worded a little
    differently per copy."""
    rng = random.Random(copies)
    extra = ("quickly", "safely", "remote", "local", "shared", "team", "project", "default")
    templates = {"github": (("create_issue", "Open a new issue in a repository"), ("list_issues", "List issues"),
                            ("search_code", "Search code across repositories")),
                 "files": (("read_file", "Read a file from disk"), ("search", "Search files by name")),
                 "chat": (("post_message", "Post a message to a channel"), ("search", "Search messages"))}
    servers = []
    for k in range(copies):
        for kind, tools in templates.items():
            servers.append(Server(name=f"{kind}-{k:03d}", tools=tuple(
                Tool(name=name, description=f"{text} {' '.join(rng.sample(extra, 2))}.",
                     input_schema={"type": "object", "properties": {"q": {"type": "string"}}})
                for name, text in tools)))
    return Catalog(name=f"{copies} copies", servers=tuple(servers))


def _items(inspector: Inspector) -> tuple[object, list[tuple[str, list[str]]]]:
    bridge = inspector.bridge(parse_config({}))
    items = [(t.name, list(dict.fromkeys(p for p in (L.name_probe(t.raw_name), " ".join(L.probe_keywords(t.description)))
                                         if p))) for t in bridge.deferred]
    return bridge.index, items


def _one_search_per_probe(index, limit: int, items) -> list[bool]:
    return [any(name in [n for n, _ in index.search(p, limit)] for p in probes) for name, probes in items]


def _paths_used(monkeypatch) -> dict[str, int]:
    used = {"small": 0, "arrays": 0}
    small, arrays = L._ScoreTable._within_small, L._ScoreTable._within

    def counted_small(self, *args):
        used["small"] += 1
        return small(self, *args)

    def counted_arrays(self, *args):
        used["arrays"] += 1
        return arrays(self, *args)

    monkeypatch.setattr(L._ScoreTable, "_within_small", counted_small)
    monkeypatch.setattr(L._ScoreTable, "_within", counted_arrays)
    return used


@pytest.mark.parametrize("limit", (1, 3, 5))
def test_rare_gate_terms_are_scored_one_by_one_with_the_answers_of_the_search(monkeypatch, limit) -> None:
    """Most gate terms of the rare-words catalog are held by a few tools: their groups take the
    plain-float path (some forty array operations per group made it most of the probing time);
    a few common ones still take the arrays. Each answer is that of ``index.search``."""
    index, items = _items(Inspector(rare_words_catalog()))
    used = _paths_used(monkeypatch)
    got = L._reached(index, limit, items)
    assert used["small"] > 5 * used["arrays"] > 0, used
    assert got == _one_search_per_probe(index, limit, items)
    assert 0 < sum(got) and (sum(got) < len(items) or limit > 1)


@pytest.mark.parametrize("catalog", [rare_words_catalog(400, 1), copies_catalog()], ids=["rare-words", "copies"])
def test_small_and_array_paths_agree_whatever_the_threshold(monkeypatch, catalog) -> None:
    """Every group through the plain floats, or every group through the arrays: the same answers as
    one search per probe (ties between copies decided by catalog order in both)."""
    index, items = _items(Inspector(catalog))
    want = {limit: _one_search_per_probe(index, limit, items) for limit in (1, 5)}
    for cells in (0, 1 << 40):
        monkeypatch.setattr(L, "_SMALL_GROUP_CELLS", cells)
        for limit, answers in want.items():
            assert L._reached(index, limit, items) == answers, (cells, limit)


def _findings(report: L.LintReport) -> list[dict]:
    return report.to_dict()["findings"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_catalogs_reachability_equals_one_search_per_probe(path) -> None:
    """The shipped catalogs at the default limit and at limit 1 (more unreachable tools)."""
    index, items = _items(Inspector(load_source(path)))
    for limit in (1, 5):
        assert L._reached(index, limit, items) == _one_search_per_probe(index, limit, items), limit


@pytest.mark.parametrize("catalog", [rare_words_catalog(300, 2), copies_catalog(25)], ids=["rare-words", "copies"])
def test_lint_findings_equal_the_straightforward_lint(catalog) -> None:
    inspector = Inspector(catalog)
    unreachable = 0
    for raw in ({}, {"search_default_limit": 1}):
        config = parse_config(raw)
        fast = L.lint(inspector, config)
        assert _findings(fast) == _findings(L.lint(inspector, config, _straightforward=True)), raw
        unreachable += fast.by_rule().get("unreachable", 0)
    assert unreachable > 0
