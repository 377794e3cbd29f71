"""Round trip: whatever ``toolsearch recommend`` answers as reached, the ``# gate:`` line it prints
(``toolsearch check ... --config config.yaml --strict``), run with the block it exported as the
config, passes; whatever it answers as out of reach still meets, as ``check`` judges it, each length's
own goal wherever that goal fits the length (the headroom aside).

Every shipped catalog (``sample_catalogs/``, the benchmark catalogs) and a catalog of odd server
names, over sets of context lengths (unknown included), goals (one, or one per length), ``--except``,
``--keep`` and ``--headroom``: the gate line is parsed by the CLI's own parser and judged by the
library function ``check`` runs, with the settings read back from the exported block as a harness
config. A handful of cases run both commands end to end."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml
from conftest import inspector_of, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolsearch.analysis.check import check_catalog
from toolsearch.analysis.recommend import GOALS, export_block, recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.cli.commands import build_parser
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).absolute().parent.parent
CATALOGS = sorted([*(ROOT / "sample_catalogs").glob("*.yaml"), ROOT / "sample_catalogs" / "seed-worked-example" / "catalog.yaml",
                   *(ROOT / "benchmarks" / "data").glob("*/catalog.json")])
#: Refused by recommend (a catalog error: two tools whose names sanitize alike), so no gate line.
REFUSED = {"hard-cases.yaml"}
LENGTH_SETS = [[32_000, 200_000], [8_000, 128_000, 1_000_000], [None], [32_000, None], [None, 1_000_000],
               [4_000], [100, 32_000], [12_345, 64_000], [200_000]]

#: Server names a shell, argparse or a YAML comment could misread.
ODD_NAMES = ["-dash", "sp ace", "quo'te", "rl\u202eo", "comma,name", "日本語", "$HOME", "a=b"]


def _odd_catalog(folder: Path) -> Path:
    servers = [{"name": name, "tools": [{"name": f"tool_{i}_{j}", "description": f"Does thing {j} of server {i}. " * (1 + j),
                                         "inputSchema": {"type": "object"}} for j in range(2 + 3 * i)]}
               for i, name in enumerate(ODD_NAMES)]
    path = folder / "odd.yaml"
    path.write_text(yaml.safe_dump({"name": "odd names", "servers": servers}, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory) -> list[tuple[str, Inspector, object]]:
    paths = [p for p in CATALOGS if p.name not in REFUSED] + [_odd_catalog(tmp_path_factory.mktemp("odd"))]
    out = []
    for path in paths:
        inspector = Inspector.from_files([path])
        out.append((str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name, inspector, listing_ladder(inspector.planner, parse_config({}), "chars4")))
    return out


def test_every_shipped_catalog_is_in_the_grid(catalogs) -> None:
    names = {name for name, _, _ in catalogs}
    assert {"sample_catalogs/team-workspace.yaml", "sample_catalogs/cloudflare-flat.yaml",
            "benchmarks/data/metatool/catalog.json", "benchmarks/data/bfcl-live/catalog.json", "odd.yaml"} <= names
    assert len(names) == len(catalogs) == len(CATALOGS) - len(REFUSED) + 1


def _shell_words(line: str) -> list[str]:
    """``line`` split as bash splits it: :func:`shlex.split`, with bash's ``$'...'`` words (which
    the gate line uses for control and invisible characters) decoded first."""
    def decode(match: re.Match) -> str:
        text = re.sub(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)",
                      lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] in "uU" and len(m.group(1)) > 1
                      else m.group(1), match.group(1))
        return shlex.quote(text)

    return shlex.split(re.sub(r"\$'((?:[^'\\]|\\.)*)'", decode, line))


def _gate_passes(name: str, inspector: Inspector, ladder, lengths, goal, per_length, excepted, kept, headroom,
                 tokenizer: str = "chars4") -> None:
    config = parse_config({})
    rec = recommend_for_contexts(ladder, config, lengths, goal, except_servers=excepted, keep_servers=kept,
                                 headroom_pct=headroom, length_goals=per_length)
    block = export_block(rec, config, catalog_name=name, fingerprint="0" * 16, version="test",
                         catalogs=[name])
    gates = [line for line in block.splitlines() if line.startswith("# gate: ")]
    if not rec.reached:
        assert not gates, block
        # Out of reach, each length where its own goal fits (without the headroom) still gets a listing that
        # meets it: judged as check judges the exported settings, on the exact listing.
        harness = rec.apply(config)
        for length in lengths:
            own = rec.goal_at(length)
            if recommend_for_contexts(ladder, config, [length], own, except_servers=excepted,
                                      keep_servers=kept).reached:
                judged = check_catalog(inspector, harness, [length], own, tokenizer, except_servers=excepted,
                                       keep_servers=kept)
                assert judged.passed, (name, lengths, goal, per_length, excepted, kept, headroom, length,
                                       [c.failures for c in judged.lengths])
        return
    assert len(gates) == 1, block
    args = build_parser().parse_args(_shell_words(gates[0].removeprefix("# gate: "))[1:])
    assert args.command == "check" and args.strict and args.config == "config.yaml" and args.sources == [name]
    assert args.tokenizer == tokenizer
    gate_goal, gate_per_length = args.goal.resolve(args.context_lengths)
    harness = parse_config(yaml.safe_load(block)["tools"]["tool_search"])
    assert (harness.threshold_pct, harness.listing_max_tokens) == (rec.threshold_pct, rec.listing_max_tokens)
    result = check_catalog(inspector, harness, args.context_lengths, gate_goal, tokenizer,
                           except_servers=args.except_servers, keep_servers=args.keep_servers,
                           length_goals=gate_per_length)
    assert result.passed, (name, lengths, goal, per_length, excepted, kept, headroom,
                           [(c.outcome.context_length, c.failures) for c in result.lengths])


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_gate_line_passes_with_the_recommended_block(catalogs, data) -> None:
    name, inspector, ladder = data.draw(st.sampled_from(catalogs), label="catalog")
    lengths = data.draw(st.sampled_from(LENGTH_SETS), label="lengths")
    goal = data.draw(st.sampled_from(GOALS), label="goal")
    per_length = data.draw(st.dictionaries(st.sampled_from(lengths), st.sampled_from(GOALS), max_size=len(lengths)),
                           label="per-length goals")
    servers = [s.name for s in ladder.servers]
    picked = data.draw(st.lists(st.sampled_from(servers), unique=True, max_size=min(4, len(servers))) if servers
                       else st.just([]), label="servers")
    split = data.draw(st.integers(0, len(picked)), label="split")
    headroom = data.draw(st.sampled_from([0, 0, 5, 10, 50, 200]), label="headroom")
    _gate_passes(name, inspector, ladder, lengths, goal, per_length, picked[:split], picked[split:], headroom)


@pytest.mark.parametrize("lengths, goal, extra", [
    ("32k,200k", "names", ["--headroom", "10"]),
    ("8k,128k,1m", "listed,1m=full", ["--except", "github", "--keep", "slack"]),
    ("unknown", "full", []),
    ("32k,unknown", "names,unknown=any", ["--keep", "grafana", "--tokenizer", "o200k_base"]),
])
def test_recommend_then_its_gate_line_end_to_end(tmp_path, lengths, goal, extra) -> None:
    (tmp_path / "five.yaml").write_bytes((ROOT / "sample_catalogs" / "five-servers.yaml").read_bytes())
    made = run_cli("recommend", "five.yaml", "--context-lengths", lengths, "--goal", goal, *extra, "--yaml", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    (tmp_path / "config.yaml").write_text(made.stdout, encoding="utf-8")
    gate = next(line for line in made.stdout.splitlines() if line.startswith("# gate: "))
    checked = run_cli(*shlex.split(gate.removeprefix("# gate: "))[1:], cwd=tmp_path)
    assert checked.returncode == 0, gate + "\n" + checked.stdout + checked.stderr


def test_odd_server_names_end_to_end(tmp_path) -> None:
    """Names a shell or argparse would misread, each given to --except or --keep: the gate line,
    run by bash, passes."""
    import shutil
    import subprocess

    from conftest import toolsearch_command

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is needed to run a $'...' gate line")
    _odd_catalog(tmp_path)
    made = run_cli("recommend", "odd.yaml", "--context-lengths", "8k,200k", "--goal", "names",
                   *[w for n in ODD_NAMES[:4] for w in ("--except=" + n,)], "--keep=" + ODD_NAMES[4],
                   "--keep=" + ODD_NAMES[6], "--yaml", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    (tmp_path / "config.yaml").write_text(made.stdout, encoding="utf-8")
    gate = next(line for line in made.stdout.splitlines() if line.startswith("# gate: ")).removeprefix("# gate: ")
    prefix = " ".join(shlex.quote(word) for word in toolsearch_command())
    run = subprocess.run([bash, "-c", prefix + gate.removeprefix("toolsearch")], cwd=tmp_path, capture_output=True,
                         text=True, encoding="utf-8", timeout=120, check=False)
    assert run.returncode == 0, gate + "\n" + run.stdout + run.stderr


def test_the_gate_line_of_a_client_config_reads_its_snapshot() -> None:
    """check --strict starts no server and refuses an MCP client config, so a gate line naming one
    could never pass: it names the catalog file a '# snapshot:' line above it saves instead."""
    inspector = inspector_of([ROOT / "sample_catalogs" / "five-servers.yaml"])
    ladder = listing_ladder(inspector.planner, parse_config({}), "chars4")
    rec = recommend_for_contexts(ladder, parse_config({}), [32_000], "names")
    block = export_block(rec, parse_config({}), catalog_name="x", fingerprint="0" * 16, version="test",
                         catalogs=["mcp.json", "five.yaml", "more servers.json"],
                         client_configs=["mcp.json", "more servers.json"])
    lines = block.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("# gate: ")))
    assert lines[at - 1] == ("# snapshot: toolsearch snapshot mcp.json 'more servers.json' -o catalog.yaml  # run where "
                             "the servers start; the gate reads the saved catalog and starts no server")
    assert lines[at].startswith("# gate: toolsearch check catalog.yaml five.yaml --config config.yaml --strict ")
    # a catalog file already called catalog.yaml is not written over
    taken = export_block(rec, parse_config({}), catalog_name="x", fingerprint="0" * 16, version="test",
                         catalogs=["catalog.yaml", "mcp.json"], client_configs=["mcp.json"])
    assert "# gate: toolsearch check catalog.yaml snapshot.yaml --config" in taken
    assert "toolsearch snapshot mcp.json -o snapshot.yaml" in taken
    # plain catalog files: no snapshot line
    plain = export_block(rec, parse_config({}), catalog_name="x", fingerprint="0" * 16, version="test",
                         catalogs=["five.yaml"])
    assert "# snapshot:" not in plain and "# gate: toolsearch check five.yaml --config" in plain


@pytest.mark.live
def test_recommend_on_a_client_config_then_snapshot_and_gate(tmp_path) -> None:
    import json
    import sys

    server = ROOT / "tests" / "mcp_test_server.py"
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"test": {"command": sys.executable,
                                                                            "args": [str(server)]}}}), encoding="utf-8")
    made = run_cli("recommend", "mcp.json", "--context-lengths", "32k,200k", "--goal", "names", "--yaml", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    (tmp_path / "config.yaml").write_text(made.stdout, encoding="utf-8")
    snapshot = next(line for line in made.stdout.splitlines() if line.startswith("# snapshot: "))
    # pasted as it is: the words after the command are a shell comment
    saved = run_cli(*shlex.split(snapshot.removeprefix("# snapshot: "), comments=True)[1:], cwd=tmp_path)
    assert saved.returncode == 0 and (tmp_path / "catalog.yaml").exists(), saved.stderr
    gate = next(line for line in made.stdout.splitlines() if line.startswith("# gate: "))
    checked = run_cli(*shlex.split(gate.removeprefix("# gate: "))[1:], cwd=tmp_path)
    assert checked.returncode == 0, gate + "\n" + checked.stdout + checked.stderr


@pytest.mark.live
def test_report_on_a_client_config_gives_the_snapshot_and_a_gate_that_reads_it(tmp_path) -> None:
    """toolsearch report carries recommend --yaml's block: on an MCP client config its gate line read
    the config, which check --strict refuses (exit 2 always); it reads the snapshot, as recommend's
    does, and the snapshot and gate lines run as given pass."""
    import html
    import json
    import sys

    server = ROOT / "tests" / "mcp_test_server.py"
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"test": {"command": sys.executable,
                                                                            "args": [str(server)]}}}), encoding="utf-8")
    made = run_cli("report", "mcp.json", "--context-lengths", "32k,200k", "--goal", "names", "--no-lint",
                   "--no-strategies", "-o", "report.html", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    text = html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    block = text[text.index("# toolsearch "):]
    block = block[:block.index("</pre>")]
    recommended = run_cli("recommend", "mcp.json", "--context-lengths", "32k,200k", "--goal", "names", "--yaml",
                          cwd=tmp_path)
    assert recommended.returncode == 0, recommended.stderr
    lines = block.splitlines()
    snapshot = next(line for line in lines if line.startswith("# snapshot: "))
    gate = next(line for line in lines if line.startswith("# gate: "))
    assert snapshot in recommended.stdout.splitlines() and gate in recommended.stdout.splitlines()
    assert snapshot.startswith("# snapshot: toolsearch snapshot mcp.json -o catalog.yaml  # run where the servers start")
    assert gate.startswith("# gate: toolsearch check catalog.yaml --config config.yaml --strict ")
    (tmp_path / "config.yaml").write_text(block, encoding="utf-8")
    # pasted as it is: the words after the command are a shell comment
    saved = run_cli(*shlex.split(snapshot.removeprefix("# snapshot: "), comments=True)[1:], cwd=tmp_path)
    assert saved.returncode == 0 and (tmp_path / "catalog.yaml").exists(), saved.stderr
    checked = run_cli(*shlex.split(gate.removeprefix("# gate: "))[1:], cwd=tmp_path)
    assert checked.returncode == 0, gate + "\n" + checked.stdout + checked.stderr


def test_the_gate_line_reads_the_harness_config_recommend_was_given(tmp_path) -> None:
    """recommend --config FILE: the block is merged into FILE, so the gate line reads FILE (as
    typed, shell-quoted), in the --yaml block, the text and Markdown output and the report; the
    gate, run as given after the merge, passes."""
    import html

    (tmp_path / "five.yaml").write_bytes((ROOT / "sample_catalogs" / "five-servers.yaml").read_bytes())
    harness = tmp_path / "my harness" / "config.yaml"
    harness.parent.mkdir()
    harness.write_text("model: some-model\ntools:\n  tool_search:\n    threshold_pct: 2\n", encoding="utf-8")
    args = ("five.yaml", "--context-lengths", "32k,200k", "--goal", "names", "--config", "my harness/config.yaml")
    made = run_cli("recommend", *args, "--yaml", cwd=tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    gate = next(line for line in made.stdout.splitlines() if line.startswith("# gate: ")).removeprefix("# gate: ")
    assert gate.startswith("toolsearch check five.yaml --config 'my harness/config.yaml' --strict "), gate
    text = run_cli("recommend", *args, cwd=tmp_path).stdout
    markdown = run_cli("recommend", *args, "--format", "markdown", cwd=tmp_path).stdout
    assert f"gate: {gate}" in text.splitlines() and f"**Gate:** `{gate}`" in markdown
    report = run_cli("report", *args, "--no-lint", "--no-strategies", "-o", "report.html", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert f"# gate: {gate}" in html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    # merged into the harness config (its other keys kept), the gate reads it and passes
    merged = yaml.safe_load(harness.read_text(encoding="utf-8"))
    merged["tools"] = yaml.safe_load(made.stdout)["tools"]
    harness.write_text(yaml.safe_dump(merged), encoding="utf-8")
    checked = run_cli(*shlex.split(gate)[1:], cwd=tmp_path)
    assert checked.returncode == 0, gate + "\n" + checked.stdout + checked.stderr
    # without --config the gate reads config.yaml, as before
    plain = run_cli("recommend", *args[:5], "--yaml", cwd=tmp_path).stdout
    assert "# gate: toolsearch check five.yaml --config config.yaml --strict " in plain
