"""``toolsearch eval`` on several catalog files: the query file ``sessions --catalog A B
--export-queries`` writes is scored on A and B combined, as the Search quality page scores it on the
catalog the sidebar combines. The files combine as every command combines them (one function:
:func:`toolsearch.live.client.load_sources`, then :func:`toolsearch.engine.catalog.combine`), a server
defined in several files is merged and said so in the same line, and the query file stays the last
file (``eval CATALOG QUERIES`` reads as before; with ``--test FILE`` every file is a catalog)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import run_cli, write_yaml
from toolsearch.analysis.evaluation import (DEFAULT_VARIANTS, evaluate, evaluate_folds, evaluate_tuned, first_names,
                                            load_queries)
from toolsearch.cli.quality import eval_files
from toolsearch.engine.catalog import load_sources
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).absolute().parent.parent
STORE = ROOT / "sample_sessions" / "state.db"  # the Hermes store the sessions tests read
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
MERGED = ("toolsearch: catalog warning: server 'github': defined 2 times ({a}, {b}); a harness keys servers by name, "
          "so their tools are merged into one server")


def _split(tmp_path: Path) -> tuple[Path, Path]:
    """The team-workspace catalog in two files, github's tools in both (a server defined twice) and
    the other servers in one file each, as a user keeps one file per team."""
    servers = yaml.safe_load(TEAM.read_text(encoding="utf-8"))["servers"]
    github, others = servers[0], servers[1:]
    assert github["name"] == "github"
    a = write_yaml(tmp_path / "a.yaml", {"name": "Team A", "servers": [
        {**github, "tools": github["tools"][:20]}, *others[:3]]})
    b = write_yaml(tmp_path / "b.yaml", {"name": "Team B", "servers": [
        {**github, "tools": github["tools"][20:]}, *others[3:]]})
    return a, b


def _exported(tmp_path: Path, a: Path, b: Path) -> Path:
    out = tmp_path / "labeled.yaml"
    done = run_cli("sessions", STORE, "--catalog", a, b, "--export-queries", out)
    assert done.returncode == 0, done.stderr
    assert MERGED.format(a=a, b=b) in done.stderr.splitlines()
    return out


@pytest.fixture(scope="module")
def split(tmp_path_factory) -> tuple[Path, Path, Path]:
    """The two catalog files and the query file sessions --catalog A B --export-queries wrote (made
    once: the tests only read them)."""
    folder = tmp_path_factory.mktemp("several")
    a, b = _split(folder)
    return a, b, _exported(folder, a, b)


def _page_inspector(*files: Path) -> Inspector:
    """The catalog the Search quality page scores: the sidebar's files combined, names prefixed."""
    return Inspector(load_sources(files), "prefixed")


def _figures(data: dict) -> dict:
    """Recall figures per variant from ``eval --json`` (or ``Evaluation.to_dict()``)."""
    keys = ("recall_at_1", f"recall_at_{data['k']}", "recall_at_limit", f"query_recall_at_{data['k']}", "mrr")
    return {v["name"]: {k: v["metrics"][k] for k in keys} for v in data["variants"]}


def test_eval_scores_exported_queries_on_the_catalogs_combined(split):
    a, b, queries = split
    done = run_cli("eval", a, b, queries, "--json")
    assert done.returncode == 0, done.stderr
    # the merge is said as sessions, plan and lint say it
    assert done.stderr.splitlines() == [MERGED.format(a=a, b=b)]
    got = json.loads(done.stdout)
    # the catalog's problems, the merge among them, as plan --json lists them
    problems = got.pop("problems")
    plan = run_cli("plan", a, b, "--json")
    assert plan.returncode == 0, plan.stderr
    assert problems == json.loads(plan.stdout)["problems"]
    assert any(p["severity"] == "info" and "github" in p["where"] + p["message"] for p in problems), problems
    expected = evaluate(_page_inspector(a, b), load_queries(queries), DEFAULT_VARIANTS, parse_config({})).to_dict()
    assert got == json.loads(json.dumps(expected))
    assert _figures(got) == _figures(expected) and set(_figures(got)) == set(DEFAULT_VARIANTS)
    assert got["tasks"] == 9 and got["unknown_expected"] == []
    # the combined catalog is what was scored: B alone lacks tools the sessions called
    alone = evaluate(_page_inspector(b), load_queries(queries), ["reference"], parse_config({}))
    assert alone.unknown_expected
    # the text report is the same evaluation
    text = run_cli("eval", a, b, queries, "--variant", "reference")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("query file: Labeled queries from state.db (9 tasks) on catalog Team A + Team B "
                                  f"({expected['deferred_count']} deferred tools, names prefixed); limit 5\n")


def test_one_catalog_and_its_query_file_read_as_before(tmp_path):
    """``eval CATALOG QUERIES`` (two files) and ``eval CATALOG --test QUERIES`` score the same file
    on the same catalog."""
    queries = ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"
    last = run_cli("eval", TEAM, queries, "--variant", "reference", "--json")
    test = run_cli("eval", TEAM, "--test", queries, "--variant", "reference", "--json")
    assert (last.returncode, test.returncode) == (0, 0), last.stderr + test.stderr
    assert last.stdout == test.stdout
    expected = evaluate(_page_inspector(TEAM), load_queries(queries), ["reference"], parse_config({}))
    assert _figures(json.loads(last.stdout)) == _figures(json.loads(json.dumps(expected.to_dict())))


def test_folds_and_a_tuning_file_on_several_catalogs(split, tmp_path):
    a, b, queries = split
    config, variants = parse_config({}), ["reference", "evidence"]
    folds = run_cli("eval", a, b, queries, "--folds", "2", "--variant", "reference", "--variant", "evidence", "--json")
    assert folds.returncode == 0, folds.stderr
    expected = evaluate_folds(_page_inspector(a, b), load_queries(queries), 2, variants, config)
    assert {**json.loads(folds.stdout), "problems": None} == {**json.loads(json.dumps(expected.to_dict())), "problems": None}
    # --tune/--test: every file given is a catalog
    data = yaml.safe_load(queries.read_text(encoding="utf-8"))
    def group(task: dict) -> str:  # tasks of one group stay on one side
        return ",".join(sorted(task["expected"]))

    tuning_groups = sorted({group(t) for t in data["tasks"]})[::2]
    tune = write_yaml(tmp_path / "tune.yaml", {**data, "tasks": [t for t in data["tasks"] if group(t) in tuning_groups]})
    test = write_yaml(tmp_path / "test.yaml", {**data, "tasks": [t for t in data["tasks"]
                                                                 if group(t) not in tuning_groups]})
    tuned = run_cli("eval", a, b, "--test", test, "--tune", tune, "--variant", "reference", "--variant", "evidence",
                    "--json")
    assert tuned.returncode == 0, tuned.stderr
    expected = evaluate_tuned(_page_inspector(a, b), load_queries(tune), load_queries(test), variants, config)
    assert {**json.loads(tuned.stdout), "problems": None} == {**json.loads(json.dumps(expected.to_dict())), "problems": None}


def test_a_query_naming_a_tool_of_no_catalog_is_warned_about_as_before(split, tmp_path):
    a, b, _ = split
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "post", "queries": ["post a slack message"], "expected": ["mcp__slack__slack_post_message"]},
        {"id": "ghost", "queries": ["summon a ghost"], "expected": ["mcp__spirits__summon"]}]})
    done = run_cli("eval", a, b, queries, "--variant", "reference")
    assert done.returncode == 0, done.stderr
    ev = evaluate(_page_inspector(a, b), load_queries(queries), ["reference"], parse_config({}))
    assert list(ev.unknown_expected) == ["mcp__spirits__summon"]
    assert done.stderr.splitlines() == [
        MERGED.format(a=a, b=b),
        f"toolsearch: warning: {queries}: 1 expected name not among the deferred tools of this catalog: "
        f"{first_names(ev.unknown_expected)}"]
    assert done.stdout.endswith("\nexpected names that are not deferred tools here: mcp__spirits__summon\n")
    # the same words as with one catalog file
    one = run_cli("eval", TEAM, queries, "--variant", "reference")
    assert one.stderr.splitlines() == done.stderr.splitlines()[1:]


def test_a_missing_file_is_named_in_one_line(split, tmp_path):
    a, b, queries = split
    missing = tmp_path / "nope.yaml"
    # a missing catalog file: the line plan gives for the same files
    done = run_cli("eval", a, missing, queries)
    plan = run_cli("plan", a, missing)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == plan.stderr and done.stderr.count("\n") == 1 and str(missing) in done.stderr
    # a missing query file, last
    done = run_cli("eval", a, b, missing)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"toolsearch: error: {missing}: ") and done.stderr.count("\n") == 1


def test_a_catalog_where_the_query_file_goes_says_the_order(split):
    """``eval A B`` reads B as the query file: when it is a catalog, the message says the order."""
    a, b, _ = split
    done = run_cli("eval", a, b)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch: error: {b}: expected a mapping with a 'tasks' list; this looks like a catalog "
                           "(the catalog files come first, the query file last: toolsearch eval CATALOG... QUERIES)\n")


def test_a_query_file_given_last_and_as_test_is_refused(tmp_path):
    queries = ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml"
    done = run_cli("eval", TEAM, queries, "--test", queries)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch: error: {queries}: a query file, and --test {queries} gives the query file "
                           "too: with --test every file before the options is a catalog; give the query file either "
                           "last or as --test, not both\n")


@pytest.mark.parametrize("files, test, split", [
    (["c.yaml"], None, (["c.yaml"], None)),
    (["c.yaml", "q.yaml"], None, (["c.yaml"], "q.yaml")),
    (["a.yaml", "b.yaml", "q.yaml"], None, (["a.yaml", "b.yaml"], "q.yaml")),
    (["a.yaml", "b.yaml"], "t.yaml", (["a.yaml", "b.yaml"], "t.yaml")),
])
def test_the_query_file_is_the_last_file_unless_test_gives_it(files, test, split):
    assert eval_files(files, test) == split


def test_the_help_says_how_the_files_are_read():
    out = " ".join(run_cli("eval", "--help").stdout.split())
    assert out.startswith("usage: toolsearch eval CATALOG... [QUERIES] [options] ")
    assert ("the query file is always the last file, so 'eval a.yaml b.yaml queries.yaml' scores queries.yaml on "
            "a.yaml and b.yaml combined, and 'eval CATALOG QUERIES' is unchanged") in out
    assert "With --test FILE every file given is a catalog" in out
    # where the exported query file is written, sessions says how eval scores it
    sessions = " ".join(run_cli("sessions", "--help").stdout.split())
    assert ("(score it on the same catalog files, the query file last: toolsearch eval CATALOG... FILE)"
            in sessions)


def test_the_docs_usage_block_is_the_commands():
    """docs/quality.md's usage block of eval starts as ``eval --help``'s usage and names every option
    eval takes (aliases aside) and no other; the README says where the query file goes."""
    import re

    from toolsearch.cli.commands import build_parser

    doc = (ROOT / "docs" / "quality.md").read_text(encoding="utf-8")
    block = doc.split("`eval` reads its files in this order:\n\n```\n", 1)[1].split("```", 1)[0]
    usage = " ".join(run_cli("eval", "--help").stdout.split("\n\n", 1)[0].split()).removeprefix("usage: ")
    assert block.startswith(usage.removesuffix(" [options]") + " ")
    sub = next(a for a in build_parser()._actions if a.choices and "eval" in a.choices).choices["eval"]  # noqa: SLF001
    taken = {a.option_strings[0] for a in sub._actions if a.option_strings} - {"-h"}  # noqa: SLF001
    assert set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", block)) == taken
    prose = " ".join(doc.split(block, 1)[1].split())
    assert ("The catalog files come first and the query file last: `toolsearch eval team-a.yaml team-b.yaml "
            "labeled.yaml` scores `labeled.yaml` on the two catalogs combined") in prose
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert ("Several files combine into one catalog (`sessions` takes them after `--catalog`, `eval` before its "
            "query file, which comes last)") in readme


def test_the_help_example_of_several_catalogs_scores_them_combined():
    """eval --help's second example gives two shipped catalogs before the query file: run as written
    from the checkout, it prints the evaluation of the two combined."""
    import shlex

    from toolsearch.cli.examples import EXAMPLES

    words = shlex.split(EXAMPLES["eval"][1])
    done = run_cli(*words[1:], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    catalogs, queries = eval_files([w for w in words[2:] if w.endswith(".yaml")], None)
    assert len(catalogs) == 2
    expected = evaluate(_page_inspector(*(ROOT / c for c in catalogs)), load_queries(ROOT / queries), ["unicode"],
                        parse_config({}))
    got = json.loads(done.stdout)
    alone = evaluate(_page_inspector(ROOT / catalogs[0]), load_queries(ROOT / queries), ["unicode"], parse_config({}))
    assert got["deferred_count"] == expected.deferred_count > alone.deferred_count
    assert _figures(got) == _figures(json.loads(json.dumps(expected.to_dict())))
