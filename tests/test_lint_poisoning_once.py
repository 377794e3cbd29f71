"""The report lints the catalog and then builds its poisoning table from the same catalog: the
poisoning checks run once (a second pass took a fifth of the report's time on a large catalog),
and any other catalog, naming or wire names gets its own findings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from toolsearch.analysis import lint as L
from toolsearch.analysis.review import review_report
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "hard-cases.yaml"


def _counted(monkeypatch) -> list[int]:
    calls = [0]
    original = L.model_strings

    def counting(tool):
        calls[0] += 1
        return original(tool)

    monkeypatch.setattr(L, "model_strings", counting)
    return calls


def test_the_report_runs_the_poisoning_checks_once(monkeypatch) -> None:
    inspector = Inspector(load_source(CATALOG))
    config = parse_config({})
    calls = _counted(monkeypatch)
    html = review_report(inspector, config, 200_000, "chars4", "chars4", source_label=CATALOG.name, fingerprint="f",
                         queries=(), strategies=None)
    tools = sum(len({t.name for t in s.tools}) for s in inspector.catalog.servers)
    assert calls[0] == tools, (calls[0], tools)
    assert "<h2>Tool poisoning checks</h2>" in html


def test_another_catalog_naming_or_wire_names_is_checked_anew(monkeypatch) -> None:
    catalog = load_source(CATALOG)
    L._POISONING_MEMO.clear()
    fresh = {naming: L.poisoning(catalog, naming) for naming in ("as-is", "prefixed")}
    L._POISONING_MEMO.clear()
    calls = _counted(monkeypatch)
    assert L.poisoning(catalog, "prefixed") == fresh["prefixed"]
    once = calls[0]
    assert L.poisoning(catalog, "prefixed") == fresh["prefixed"] and calls[0] == once  # the same: not again
    assert L.poisoning(catalog, "as-is") == fresh["as-is"] and calls[0] == 2 * once
    copy = replace(catalog)  # an equal catalog, another object: checked anew
    assert L.poisoning(copy, "as-is") == fresh["as-is"] and calls[0] == 3 * once
    server, tool = copy.servers[0], copy.servers[0].tools[0]
    renamed = {(server.name, tool.name): type("Registered", (), {"name": "another_wire_name"})()}
    L.poisoning(copy, "as-is", renamed)
    assert calls[0] == 4 * once
