"""The Tuning page's copy-paste block (Streamlit ``AppTest``): its ``# gate:`` line names the shipped
sample files the catalog is made of, as ``toolsearch recommend --yaml`` names the files it was given,
so the command runs as copied; an uploaded catalog, which has no path to run it on again, keeps the
``CATALOG`` placeholder."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
LENGTHS = "32k,200k,1m"


def _gate(block: str) -> str:
    (line,) = [line for line in block.splitlines() if line.startswith("# gate: ")]
    return line


def _tuning(query: dict[str, str], upload: bytes | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lengths": LENGTHS, "goal": "names", **query})
    at.run()
    if upload is not None:
        at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
        at.session_state["_upload_store"] = [("mine.json", upload)]
        at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def test_the_gate_line_names_a_shipped_sample_as_recommend_does():
    at = _tuning({"catalog": "five-servers"})
    gate = _gate(at.code[0].value)
    cli = run_cli("recommend", "sample_catalogs/five-servers.yaml", "--context-lengths", LENGTHS, "--goal", "names",
                  "--yaml", cwd=ROOT)
    assert cli.returncode == 0, cli.stderr
    assert gate == _gate(cli.stdout)
    assert gate.startswith("# gate: toolsearch check sample_catalogs/five-servers.yaml --config ")


def test_the_gate_line_names_every_combined_sample():
    at = _tuning({"catalog": "five-servers", "with": "japanese"})
    assert at.session_state["catalog_more"] == ["japanese"]
    cli = run_cli("recommend", "sample_catalogs/five-servers.yaml", "sample_catalogs/japanese.yaml",
                  "--context-lengths", LENGTHS, "--goal", "names", "--yaml", cwd=ROOT)
    assert _gate(at.code[0].value) == _gate(cli.stdout)
    assert _gate(cli.stdout).startswith("# gate: toolsearch check sample_catalogs/five-servers.yaml "
                                        "sample_catalogs/japanese.yaml --config ")


def test_an_uploaded_catalog_keeps_the_placeholder():
    catalog = {"name": "Mine", "servers": [{"name": "s", "tools": [
        {"name": f"t{i}", "description": "Does a thing.", "inputSchema": {"type": "object"}} for i in range(3)]}]}
    at = _tuning({}, upload=json.dumps(catalog).encode())
    assert _gate(at.code[0].value).startswith("# gate: toolsearch check CATALOG --config ")
