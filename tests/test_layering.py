"""The package layout: imports go one way between the four layers, with no cycle.

cli and ui (the app's views) -> analysis and live -> engine. The engine imports nothing from the
other layers; live and analysis never import each other; cli and ui never import each other (the
app's views may use the command line's argument types, ``cli.textfmt``), and ui is the only layer
that imports Streamlit.
Every import counts, including the ones inside functions.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import toolsearch

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "toolsearch"
LAYERS = ("engine", "analysis", "live", "cli", "ui")
#: layer -> the layers it may import (besides itself).
ALLOWED = {
    "engine": set(),
    "live": {"engine"},
    "analysis": {"engine"},
    "cli": {"engine", "analysis", "live"},
    "ui": {"engine", "analysis", "live"},
}
#: Single modules a layer may import besides ``ALLOWED``: the app's views parse context lengths
#: as the command line does.
ALLOWED_MODULES = {"ui": {"toolsearch.cli.textfmt"}}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every toolsearch module ``name`` imports (resolved to module names in ``known``)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()

    def add(target: str, names: list[str]) -> None:
        for alias in names:
            if f"{target}.{alias}" in known:
                found.add(f"{target}.{alias}")
            elif target in known:
                found.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "toolsearch":
                    found.add(alias.name if alias.name in known else alias.name.rsplit(".", 1)[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "toolsearch":
                assert target in known or target.rsplit(".", 1)[0] in known, f"{name}: import of unknown {target}"
                add(target, [a.name for a in node.names])
    found.discard(name)
    return found


@functools.lru_cache(maxsize=1)
def _graph() -> tuple[tuple[str, frozenset[str]], ...]:
    mods = modules()
    known = set(mods)
    return tuple((name, frozenset(imports_of(name, path, known))) for name, path in mods.items())


def graph() -> dict[str, set[str]]:
    """``{module: the toolsearch modules it imports}`` (parsed once per test run)."""
    return {name: set(targets) for name, targets in _graph()}


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_sits_in_a_layer():
    loose = sorted(n for n in modules() if layer(n) is None and n not in ("toolsearch", "toolsearch.__main__"))
    assert loose == []
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(LAYERS)


def test_imports_go_one_way():
    wrong = []
    for source, targets in graph().items():
        here = layer(source)
        for target in sorted(targets):
            there = layer(target)
            if here is None or there is None or here == there:
                continue
            if there not in ALLOWED[here] and target not in ALLOWED_MODULES.get(here, set()):
                wrong.append(f"{source} -> {target}")
    assert wrong == []


def test_engine_and_root_stay_below_the_other_layers():
    edges = graph()
    assert {layer(t) for t in edges["toolsearch"]} == {"engine"}
    for name, targets in edges.items():
        if layer(name) == "engine":
            assert targets <= {n for n in edges if layer(n) == "engine"}, name


def test_only_ui_imports_streamlit():
    """Streamlit is the app's: the library, the CLI and the live client work without it (the
    ``app`` command starts it in a fresh interpreter, on the view package's main script by path)."""
    found = []
    for name, path in modules().items():
        if layer(name) == "ui":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{name} -> {n}" for n in names if n.split(".")[0] == "streamlit"]
    assert found == []


def test_the_app_runs_from_the_package():
    """A checkout's ``app.py`` and the installed app's main script are the same call of the package's
    router (no code repeated between ``streamlit run app.py`` and ``toolsearch app``), and every page
    the router lists is a view script of the package."""
    from toolsearch.ui.router import PAGES

    mains = [[line.split("#")[0].rstrip() for line in main.read_text(encoding="utf-8").split('"""')[-1].splitlines()
              if line.strip()] for main in (ROOT / "app.py", PACKAGE / "ui" / "entry" / "app.py")]
    assert mains[0] == mains[1] == [
        "import streamlit as st", "from toolsearch.ui import router", "if router.serving():",
        "    app = st.App(__file__, **router.app_options())", "else:", "    router.run()"]
    for stem, _title, _icon in PAGES:
        assert (PACKAGE / "ui" / f"{stem}.py").is_file(), stem
    # The checkout's pages/ folder (the entry points Streamlit's legacy pages/ mode runs by file
    # stem, e.g. for a deep link on a fresh server's first request): one call per page.
    assert sorted(p.stem for p in (ROOT / "pages").glob("*.py")) == sorted(stem for stem, _t, _i in PAGES)
    for stem, _title, _icon in PAGES:
        code = [line for line in (ROOT / "pages" / f"{stem}.py").read_text(encoding="utf-8").split('"""')[-1]
                .splitlines() if line.strip()]
        assert code == ["from toolsearch.ui import router", f'router.run_page("{stem}")'], stem


def test_no_cycle_between_layers():
    layer_edges: dict[str, set[str]] = {name: set() for name in LAYERS}
    for source, targets in graph().items():
        for target in targets:
            a, b = layer(source), layer(target)
            if a and b and a != b:
                layer_edges[a].add(b)
    assert _cycle(layer_edges) is None


def test_no_cycle_between_modules():
    edges = graph()
    edges = {n: {t for t in ts if t != "toolsearch"} for n, ts in edges.items()}
    assert _cycle(edges) is None


def test_sweep_check_sees_real_edges():
    edges = graph()
    assert "toolsearch.engine.config" in edges["toolsearch.engine.inspector"] or \
        "toolsearch.engine.plan" in edges["toolsearch.engine.inspector"]
    assert "toolsearch.cli.common" in edges["toolsearch.cli.diff"]
    assert "toolsearch.cli.diff" in edges["toolsearch.cli.commands"]
    assert "toolsearch.cli.commands" not in edges["toolsearch.cli.diff"]
    assert "toolsearch.cli.commands" not in edges["toolsearch.cli.quality"]


def test_public_api_and_entry_point():
    from toolsearch.cli import main

    assert callable(main)
    assert sorted(toolsearch.__all__) == sorted(
        ["Catalog", "Server", "Tool", "load_source", "load_sources", "ToolSearchConfig", "load_config",
         "parse_config", "CatalogError", "ConfigError", "ProfileError", "ServerError", "ToolsearchError",
         "Inspector", "Plan", "Planner", "listing_budget"])
    for name in toolsearch.__all__:
        assert getattr(toolsearch, name).__module__.startswith("toolsearch.engine."), name


def test_subpackages_say_what_belongs_there():
    for name in LAYERS:
        module = __import__(f"toolsearch.{name}", fromlist=["_"])
        doc = module.__doc__ or ""
        assert "What belongs here" in doc and "May import" in doc, name


def _public_functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(place, node)`` for every public function and method (constructors included) of the
    engine, analysis and live layers; a property's setter is documented by its getter."""
    out = []
    for layer in ("engine", "analysis", "live"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            place = path.relative_to(ROOT).as_posix()
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
                    out.append((f"{place}: {node.name}", node))
                elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    for item in node.body:
                        if (isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                                and (not item.name.startswith("_") or item.name == "__init__")
                                and not any(isinstance(d, ast.Attribute) and d.attr == "setter"
                                            for d in item.decorator_list)):
                            out.append((f"{place}: {node.name}.{item.name}", item))
    return out


def test_public_functions_have_type_hints_and_docstrings():
    """The library's standard: every public function of the engine, analysis and live layers has
    a type hint on every parameter and on its result, and a docstring."""
    missing = []
    functions = _public_functions()
    for place, node in functions:
        args = node.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, *filter(None, (args.vararg, args.kwarg))]
        unhinted = [a.arg for a in params if a.annotation is None and a.arg not in ("self", "cls")]
        if unhinted:
            missing.append(f"{place}: no hint for {', '.join(unhinted)}")
        if node.returns is None:
            missing.append(f"{place}: no result hint")
        if node.name != "__init__" and not ast.get_docstring(node):
            missing.append(f"{place}: no docstring")
    assert len(functions) > 500 and missing == []


def test_the_front_door_says_what_it_raises():
    """The functions docs/library.md starts from name the errors they raise, and where a figure
    has a unit, the unit."""
    from toolsearch.engine.catalog import load_text
    from toolsearch.engine.tokens import get_tokenizer

    raising = {
        toolsearch.load_source: ["CatalogError"], toolsearch.load_sources: ["CatalogError"],
        load_text: ["CatalogError"], toolsearch.load_config: ["ConfigError"],
        toolsearch.Inspector.from_files: ["CatalogError", "ValueError"],
        toolsearch.Inspector.plan: ["TokenizerError"], toolsearch.Planner.plan: ["TokenizerError"],
        toolsearch.Planner.tool_tokens: ["TokenizerError"], get_tokenizer: ["TokenizerError"],
    }
    for function, errors in raising.items():
        doc = function.__doc__ or ""
        assert "Raises:" in doc and all(f"{e}:" in doc for e in errors), function.__qualname__
    for function in (toolsearch.Inspector.plan, toolsearch.Planner.plan):
        assert "context length in tokens" in (function.__doc__ or ""), function.__qualname__
    assert "in tokens" in (toolsearch.listing_budget.__doc__ or "")


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle in ``edges`` (as a list of nodes), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_menu_sections_hold_every_page_once_in_menu_order():
    """The sidebar menu's sections list every page once, in :data:`PAGES` order, and the page
    tables of README.md and docs/app.md follow that order."""
    from toolsearch.ui.router import PAGES, SECTIONS

    assert [stem for _heading, stems in SECTIONS for stem in stems] == [stem for stem, _t, _i in PAGES]
    titles = [title for _stem, title, _icon in PAGES]
    for doc in (ROOT / "README.md", ROOT / "docs" / "app.md"):
        rows = [line.split("|")[1].strip() for line in doc.read_text(encoding="utf-8").splitlines()
                if line.startswith("| ") and line.split("|")[1].strip() in titles]
        assert rows == titles, doc.name


def test_functions_that_take_a_tokenizer_name_say_an_unknown_one_raises():
    """The analysis functions that count with a named tokenizer raise ``TokenizerError`` for an
    unknown name, and their docstrings say so."""
    from toolsearch.analysis import collapse, harnesses, quantities, sessions, sweep
    from toolsearch.engine.errors import TokenizerError

    inspector = toolsearch.Inspector.from_files([ROOT / "sample_catalogs" / "five-servers.yaml"])
    planner, config = inspector.planner, toolsearch.parse_config({})
    calls = {
        sweep.sweep: lambda: sweep.sweep(planner, config, [200_000], [5], tokenizer="nope"),
        sweep.plan_at_budget: lambda: sweep.plan_at_budget(planner, config, 100, "nope"),
        sweep.listing_ladder: lambda: sweep.listing_ladder(planner, config, "nope"),
        collapse.reference_collapse: lambda: collapse.reference_collapse(
            planner.deferral(config.defer).groups, 1000, planner.header, "nope"),
        collapse.compare_collapse: lambda: collapse.compare_collapse(planner, config, 200_000, "nope"),
        collapse.collapse_table: lambda: collapse.collapse_table(planner, config, [200_000], "nope"),
        harnesses.hermes: lambda: harnesses.hermes(inspector, 200_000, config, "nope"),
        harnesses.harness_row: lambda: harnesses.harness_row(
            "hermes", "config", inspector, harnesses.catalog_figures(planner), 200_000, config, "nope"),
        harnesses.harness_rows: lambda: harnesses.harness_rows(inspector, [200_000], config, "nope"),
        quantities.tool_schemas_sum: lambda: quantities.tool_schemas_sum(planner, "nope"),
        sessions.listing_what_if: lambda: sessions.listing_what_if([], inspector, config, None, "nope"),
        sessions.called_listed_at: lambda: sessions.called_listed_at([], inspector, config, [200_000], "nope"),
        sessions.session_flags: lambda: sessions.session_flags([], inspector, config, "nope"),
    }
    for function, call in calls.items():
        assert "TokenizerError:" in (function.__doc__ or ""), function.__qualname__
        try:
            call()
        except TokenizerError:
            continue
        raise AssertionError(f"{function.__qualname__} did not raise TokenizerError")


def test_durations_in_seconds_say_so():
    """A public function that takes a duration (a ``float`` timeout, grace or idle time) says it
    is in seconds, or is the async form or a thin wrapper of one that does."""
    missing = []
    classes = {f"{path.relative_to(ROOT).as_posix()}: {node.name}": ast.get_docstring(node) or ""
               for layer in ("engine", "analysis", "live") for path in (PACKAGE / layer).rglob("*.py")
               for node in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(node, ast.ClassDef)}
    for place, node in _public_functions():
        doc = ast.get_docstring(node) or ""
        if node.name == "__init__":  # a constructor's arguments are the class docstring's
            doc = classes[place.rsplit(".", 1)[0]]
        for arg in [*node.args.args, *node.args.kwonlyargs]:
            hint = ast.unparse(arg.annotation) if arg.annotation is not None else ""
            if ("timeout" in arg.arg or arg.arg in ("grace", "seconds")) and "float" in hint:
                if "second" not in doc and not re.search(r"(Async form of|like) :func:", doc):
                    missing.append(f"{place}: {arg.arg}")
    assert missing == []
