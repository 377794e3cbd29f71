"""MetaTool's needs-no-tool requests as a second abstention measure: the converter that writes
``benchmarks/data/metatool/no-tool-*.json``, the committed files, and their column in the
search-quality figures.

The converter runs as a user runs it (``python scripts/third_party_data.py ...``), on a small
MetaTool-shaped git repository made here, so every rule can be checked by reading it; the
committed files are checked against the same rules, and against a fresh conversion of the real
repository when a copy of it is on this machine."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolsearch.analysis.evaluation import evaluate, load_queries, tune
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "third_party_data.py"
DATA = ROOT / "benchmarks" / "data"
METATOOL_COMMIT = "35e81bb7576826e980c80fed8f8c0a2b4a1e6fbb"
#: A copy of https://github.com/HowieHwong/MetaTool (a checkout, or a git directory whose HEAD is
#: METATOOL_COMMIT), when one is on this machine.
METATOOL_SOURCE = os.environ.get("TOOLSEARCH_METATOOL_SOURCE", "")


def words(query: str) -> str:
    return " ".join(query.split()).casefold()


def side(query: str) -> str:
    digest = hashlib.sha256(f"23:split:no-tool:{query}".encode()).hexdigest()
    return "test" if int(digest[:12], 16) / 16 ** 12 < 0.5 else "tune"


def convert(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--metatool", str(source), "--out-dir", str(out)],
                          check=False, cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=600)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


NEGATIVES = [
    "Write a haiku about autumn.",
    "write a   HAIKU about autumn.",            # the same words as the first, case and spacing aside
    "Book a flight to Paris",                   # the words of a positive Task1 request
    "find me plugins for stock prices",         # the words of a ToolE request
    "Explain " + "very " * 120 + "briefly.",    # over 500 characters
    *(f"Question number {i}: why is the sky blue?" for i in range(12)),
]


def fake_metatool(tmp_path: Path) -> Path:
    """A git repository with MetaTool's three files, a few tools and requests of each label."""
    repo = tmp_path / "MetaTool"
    (repo / "dataset" / "data").mkdir(parents=True)
    (repo / "dataset" / "tmp_dataset").mkdir()
    (repo / "dataset" / "plugin_des.json").write_text(json.dumps(
        {"FinanceTool": "Stock prices and market data.", "FlightTool": "Book flights.",
         "WeatherTool": "Weather forecasts."}), encoding="utf-8")
    (repo / "dataset" / "data" / "all_clean_data.csv").write_text(
        "Query,Tool\nFind me plugins for stock prices,FinanceTool\nWhat is AAPL at?,FinanceTool\n"
        "Book a flight to Rome,FlightTool\nWill it rain?,WeatherTool\n", encoding="utf-8")
    items = [{"label": "positive", "tool": "FlightTool", "query": "Book a flight to Paris"}]
    items += [{"label": "negative", "query": q} for q in NEGATIVES]
    (repo / "dataset" / "tmp_dataset" / "Task1.json").write_text(json.dumps(items), encoding="utf-8")
    git(tmp_path, "init", "-q", str(repo))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "data")
    return repo


def test_converter_writes_the_no_tool_files_by_its_rules_and_the_same_bytes_twice(tmp_path):
    repo = fake_metatool(tmp_path)
    first, second = convert(repo, tmp_path / "a"), convert(repo, tmp_path / "b")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    counts = json.loads(first.stdout.split(" ", 1)[1])
    # 17 negatives: one repeat, one positive's words, one ToolE request's words, one too long.
    assert counts["no-tool-pool"] == 13
    written = {}
    for part in ("tune", "test"):
        a = (tmp_path / "a" / "metatool" / f"no-tool-{part}.json").read_bytes()
        assert a == (tmp_path / "b" / "metatool" / f"no-tool-{part}.json").read_bytes(), part
        written[part] = json.loads(a)
    tasks = [t for part in ("tune", "test") for t in written[part]["tasks"]]
    queries = [t["queries"][0] for t in tasks]
    assert len(tasks) == 13 and len({t["id"] for t in tasks}) == 13  # fewer than the sample size: all taken
    assert all(t["expected"] == [] for t in tasks)
    assert [words(q) for q in queries].count(words(NEGATIVES[0])) == 1
    assert not {"book a flight to paris", "find me plugins for stock prices"} & {words(q) for q in queries}
    assert all(len(q) <= 500 for q in queries)
    for part in ("tune", "test"):
        assert written[part]["commit"] == git(repo, "rev-parse", "HEAD")
        assert written[part]["licence"] == "MIT" and written[part]["source"] == "https://github.com/HowieHwong/MetaTool"
        assert all(side(t["queries"][0]) == part for t in written[part]["tasks"]), part
    assert written["tune"]["tasks"] and written["test"]["tasks"]
    # Each file reads as a query file over the set's catalog.
    load_queries(tmp_path / "a" / "metatool" / "no-tool-test.json")


def test_converter_samples_no_tool_requests_with_the_seed(tmp_path):
    """With more requests than the sample size, the same seeded sample every run; the sample is
    what the seed picks, not the file's first requests."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import third_party_data as converter
    finally:
        sys.path.remove(str(SCRIPT.parent))
    negatives = [f"Question number {i}: why is the sky blue?" for i in range(400)]
    meta = {"title": "t", "source": "s", "source_file": "f", "licence": "MIT", "commit": "0" * 40}
    (tmp_path / "a" / "x").mkdir(parents=True)
    (tmp_path / "b" / "x").mkdir(parents=True)
    converter.write_no_tool("x", negatives, [], meta, tmp_path / "a")
    converter.write_no_tool("x", list(reversed(negatives)), [], meta, tmp_path / "b")
    for part in ("tune", "test"):
        assert (tmp_path / "a" / "x" / f"no-tool-{part}.json").read_bytes() == \
            (tmp_path / "b" / "x" / f"no-tool-{part}.json").read_bytes()
    taken = [t["queries"][0] for p in ("tune", "test")
             for t in json.loads((tmp_path / "a" / "x" / f"no-tool-{p}.json").read_text())["tasks"]]
    assert len(taken) == converter.NO_TOOL_SAMPLE == 160
    assert set(taken) != set(negatives[:160]) and set(taken) != set(sorted(negatives)[:160])


def test_committed_no_tool_files_follow_the_rules():
    files = {part: json.loads((DATA / "metatool" / f"no-tool-{part}.json").read_text(encoding="utf-8"))
             for part in ("tune", "test")}
    test = json.loads((DATA / "metatool" / "test.json").read_text(encoding="utf-8"))
    for part, doc in files.items():
        assert {k: doc[k] for k in ("source", "licence", "commit")} == {
            "source": test["source"], "licence": "MIT", "commit": METATOOL_COMMIT}
        assert "Task1.json" in doc["source_file"] and doc["catalog"] == "catalog.json"
        assert all(t["expected"] == [] and len(t["queries"]) == 1 for t in doc["tasks"])
        assert all(side(t["queries"][0]) == part for t in doc["tasks"]), part
        qf = load_queries(DATA / "metatool" / f"no-tool-{part}.json")
        assert all(t.abstention for t in qf.tasks)
    tasks = files["tune"]["tasks"] + files["test"]["tasks"]
    assert len(tasks) == 160
    assert len({t["id"] for t in tasks}) == 160
    seen = [words(t["queries"][0]) for t in tasks]
    assert len(set(seen)) == 160  # no request twice, so none on both sides
    assert all(len(t["queries"][0]) <= 500 for t in tasks)
    toole = {words(q) for t in load_queries(DATA / "metatool" / "all.json").tasks for q in t.queries}
    assert not toole & set(seen)


@pytest.mark.skipif(not METATOOL_SOURCE or not Path(METATOOL_SOURCE).exists(),
                    reason="TOOLSEARCH_METATOOL_SOURCE names no copy of the MetaTool repository")
def test_committed_metatool_files_are_what_the_converter_writes(tmp_path):
    """Converting MetaTool at the named commit gives every committed metatool file byte for byte:
    the needs-no-tool files, and the older files unchanged by them."""
    result = convert(METATOOL_SOURCE, tmp_path)
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "metatool").iterdir())
    assert written == sorted(p.name for p in (DATA / "metatool").iterdir()) == [
        "all.json", "catalog.json", "no-tool-test.json", "no-tool-tune.json", "test.json", "tune.json"]
    for name in written:
        assert (tmp_path / "metatool" / name).read_bytes() == (DATA / "metatool" / name).read_bytes(), name


def test_figures_score_the_no_tool_requests_with_the_parameters_tuned_on_tune_json():
    """The metatool table's needs-no-tool column is each variant's share of no-tool-test.json left
    empty, with the parameters tuned on tune.json alone; bfcl-live has no such file or column."""
    from benchmarks.search_quality import NO_TOOL_HEADING, set_figures

    variants = ("reference", "plain-bm25", "evidence", "agent")
    text, rows = set_figures("metatool", variants)
    header = next(line for line in text.splitlines() if line.startswith("| variant"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    column = cells.index(NO_TOOL_HEADING)
    ins = Inspector(load_source(DATA / "metatool" / "catalog.json"))
    tuning = load_queries(DATA / "metatool" / "tune.json")
    no_tool = load_queries(DATA / "metatool" / "no-tool-test.json")
    for variant in variants:
        params = tune(ins, tuning.tasks, variant, parse_config({}))
        share = evaluate(ins, no_tool, [variant], parse_config({}), params={variant: params},
                         explain=False).variants[0].metrics.nonsense_queries_empty
        line = next(line for line in text.splitlines() if line.startswith(f"| {variant} |"))
        assert [c.strip() for c in line.strip("|").split("|")][column] == f"{share:.3f}", variant
        assert next(r for r in rows if r[0] == variant)[3] == pytest.approx(share)
    # The figures differ between variants: a ranker that never abstains leaves none empty.
    assert next(r for r in rows if r[0] == "plain-bm25")[3] == 0.0
    assert next(r for r in rows if r[0] == "reference")[3] == 1.0
    bfcl_text, bfcl_rows = set_figures("bfcl-live", ("reference",))
    assert NO_TOOL_HEADING not in bfcl_text and bfcl_rows[0][3] is None


def test_docs_and_readme_give_the_no_tool_figures_line():
    """The Figures summary has a line for the needs-no-tool requests under metatool's, in
    docs/search-quality.md and README (one run writes both), and the set's README says how the
    files were made."""
    from benchmarks.search_quality import README_BEGIN, README_END

    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split(README_BEGIN)[1].split(README_END)[0]
    for text in (doc, readme):
        lines = text.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("* `metatool` (test split): "))
        assert lines[at + 1].startswith("  * with `no-tool-test.json` (requests that need no tool, by MetaTool's "
                                        "labels) as the absent requests, the same tuned parameters: ")
    data_readme = " ".join((DATA / "README.md").read_text(encoding="utf-8").split())
    assert "dataset/tmp_dataset/Task1.json" in data_readme and "23:split:no-tool:" in data_readme
    sizes = {part: len(load_queries(DATA / "metatool" / f"no-tool-{part}.json").tasks) for part in ("tune", "test")}
    assert f"is below 0.5 ({sizes['test']} requests), else to `no-tool-tune.json` ({sizes['tune']})" in data_readme


def test_docs_prose_on_the_no_tool_column_says_what_the_table_shows():
    """docs/search-quality.md says that the variants with tuned thresholds leave a larger share of
    the needs-no-tool requests empty than of the held-out tools' requests, and that the target is
    not reached with them as the absent requests either: both read from its own metatool table."""
    from benchmarks.search_quality import NO_TOOL_HEADING, TARGET_EMPTY, TARGET_RECALL

    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    assert "leave a larger share of these requests empty than of the held-out tools' requests" in " ".join(doc.split())
    assert "the target is not reached with these requests as the absent ones either" in " ".join(doc.split())
    section = doc.split("### `metatool`: tuned on `tune.json`, scored on `test.json`", 1)[1].split("###", 1)[0]
    table = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
    header, rows = table[0], {r[0]: r for r in table[2:]}
    recall, absent, no_tool = (header.index(h) for h in (
        "query recall@5 (out of sample)", "nonsense queries empty (out of sample)", NO_TOOL_HEADING))
    for variant in ("agent", "evidence", "semantic"):
        assert float(rows[variant][no_tool]) > float(rows[variant][absent]), variant
    assert not [v for v, r in rows.items() if float(r[recall]) >= TARGET_RECALL and float(r[no_tool]) >= TARGET_EMPTY]
