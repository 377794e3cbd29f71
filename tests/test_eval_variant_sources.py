"""toolsearch eval names where its what-if variants come from, as the Search quality page's caption
and the search command's variant label do (a row named anthropic-bm25 alone does not say that it
is modelled on another harness's search)."""

from __future__ import annotations

from conftest import run_cli
from toolsearch.analysis.variants import VARIANT_SOURCE

CATALOG = "sample_catalogs/team-workspace.yaml"
QUERIES = "sample_catalogs/queries/team-workspace.yaml"


def test_eval_text_says_where_each_variant_with_a_source_comes_from():
    result = run_cli("eval", CATALOG, QUERIES, "--variant", "reference", "--variant", "anthropic-bm25",
                     "--variant", "hermes-name-bonus", "--variant", "reference+anthropic-regex")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("where they come from: ")]
    assert lines == ["where they come from: "
                     f"anthropic-bm25: {VARIANT_SOURCE['anthropic-bm25']}; "
                     f"hermes-name-bonus: {VARIANT_SOURCE['hermes-name-bonus']}; "
                     f"anthropic-regex: {VARIANT_SOURCE['anthropic-regex']}; the others are switches of the reference"]


def test_eval_text_without_such_variants_has_no_sources_line():
    result = run_cli("eval", CATALOG, QUERIES, "--variant", "reference", "--variant", "no-gate")
    assert result.returncode == 0, result.stderr
    assert "where they come from" not in result.stdout


def test_eval_json_labels_each_variant_as_search_side_by_side_json_does():
    import json

    from toolsearch.analysis.variants import variant_label

    data = json.loads(run_cli("eval", CATALOG, QUERIES, "--json", "--variant", "reference",
                              "--variant", "anthropic-bm25").stdout)
    labels = {v["name"]: v["label"] for v in data["variants"]}
    assert labels == {"reference": variant_label("reference"), "anthropic-bm25": variant_label("anthropic-bm25")}
    assert "after Anthropic's tool search (BM25)" in labels["anthropic-bm25"]
    side = json.loads(run_cli("search", CATALOG, "-q", "create issue", "--side-by-side", "--json").stdout)
    assert {c["variant"]: c["label"] for c in side["columns"]}["anthropic-bm25"] == labels["anthropic-bm25"]


def test_eval_text_of_outside_variants_only_names_no_others():
    # Every variant run comes from another harness: the line names their sources and no "others".
    result = run_cli("eval", CATALOG, QUERIES, "--variant", "anthropic-regex", "--variant", "anthropic-bm25")
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("where they come from"))
    assert line == ("where they come from: anthropic-regex: after Anthropic's tool search (regex); "
                    "anthropic-bm25: after Anthropic's tool search (BM25)")
    mixed = run_cli("eval", CATALOG, QUERIES, "--variant", "reference", "--variant", "anthropic-regex").stdout
    assert "where they come from: anthropic-regex: after Anthropic's tool search (regex); the others are " \
           "switches of the reference" in mixed
