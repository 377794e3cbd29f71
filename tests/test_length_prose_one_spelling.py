"""A context length that is no whole number of thousands reads ``12,345 tokens`` on every surface,
as ``recommend`` writes it (:func:`~toolsearch.analysis.quantities.length_label`): the Tuning page's
heat-table headings and heat-chart ticks, ``--goal``'s errors, the harness knob sentences and the
cache diff's settings cause wrote it bare (``12,345``; the cache diff ``32,000`` for 32K too)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.analysis.charts import context_label
from toolsearch.analysis.quantities import length_label

ROOT = Path(__file__).resolve().parent.parent
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"


def test_the_tuning_heat_table_heads_its_sidebar_column_as_every_surface_writes_it():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"ctx": "custom", "ctxn": "12345"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    table = next(h.value for h in at.html if 'data-table="tuning_heatmap"' in h.value)
    head = table[table.index("<thead") if "<thead" in table else 0:]
    heads = [re.sub(r"<[^>]+>", "", th) for th in re.findall(r'<th title="[^"]*">(.*?)</th>', head)]
    assert "12,345 tokenssidebar" in heads, heads
    assert "12,345sidebar" not in heads
    # the chart over context length labels its columns with the same function
    assert context_label(12_345) == length_label(12_345) == "12,345 tokens"
    assert [context_label(n) for n in (8_000, 1_000_000, 10_000_000_000)] == ["8K", "1M", "10,000M"]


def test_goal_errors_write_the_lengths_as_recommend_does():
    done = run_cli("recommend", FIVE, "--context-lengths", "12345,32k", "--goal", "names,1k=full")
    assert done.returncode == 2
    assert ("a goal is given for 1K, which is not among --context-lengths (12,345 tokens, 32K)"
            in done.stderr), done.stderr
    done = run_cli("recommend", FIVE, "--context-lengths", "12345,32k", "--goal", "32k=full")
    assert "no goal for 12,345 tokens: name every length" in done.stderr, done.stderr


def test_harness_knob_sentences_write_the_length_with_its_unit():
    done = run_cli("harnesses", FIVE, "--context-lengths", "12345")
    assert done.returncode == 0, done.stderr
    assert "At 12,345 tokens" in done.stdout.splitlines()
    assert "auto:N defers at 12,345 tokens for any N; false sends every schema" in done.stdout, done.stdout
    assert "defers at 12,345 " not in done.stdout.replace("12,345 tokens", "")


def test_the_cache_diff_cause_names_the_lengths_as_its_header_does():
    done = run_cli("diff", FIVE, FIVE, "--context-length-a", "12345", "--context-length-b", "32k")
    assert "· context length 12,345 tokens ·" in done.stdout and "· context length 32K ·" in done.stdout
    assert "(context length 12,345 tokens → 32K)" in done.stdout, done.stdout
