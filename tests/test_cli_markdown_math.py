"""``recommend --format markdown`` and ``check --format markdown`` write catalog text (server names)
for a pull-request comment or a job summary. GitHub draws ``$…$`` and ``$$…$$`` there as math, so a
server named ``$x^2$`` showed as a formula instead of its name; each ``$`` is now escaped (``\\$``),
as the other Markdown characters already were."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli, write_json

NAME = "$x^2$ and $$y$$"


def _catalog(tmp_path: Path) -> Path:
    def tools(prefix: str) -> list[dict]:
        return [{"name": f"{prefix}_t{i}", "description": "Does a thing with a long description that costs tokens. " * 20,
                 "inputSchema": {"type": "object"}} for i in range(30)]
    return write_json(tmp_path / "math.json", {"name": "math", "servers": [
        {"name": NAME, "tools": tools("a")}, {"name": "plain", "tools": tools("b")}]})


def _unescaped_dollar(text: str) -> list[str]:
    """Lines outside code spans with a ``$`` no backslash escapes."""
    out = []
    for line in text.splitlines():
        prose = re.sub(r"(`+).*?\1", "", line)  # code spans show a $ literally
        if re.search(r"(?<!\\)\$", prose):
            out.append(line)
    return out


def test_recommend_markdown_escapes_dollars_in_server_names(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path)
    done = run_cli("recommend", catalog, "--context-lengths", "32k,128k", "--goal", "names", "--keep", NAME,
                   "--format", "markdown")
    assert done.returncode == 0, done.stderr
    assert "\\$x^2\\$ and \\$\\$y\\$\\$" in done.stdout, done.stdout
    assert _unescaped_dollar(done.stdout) == [], done.stdout


def test_check_markdown_escapes_dollars_in_server_names(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path)
    done = run_cli("check", catalog, "--context-lengths", "8k", "--goal", "full", "--keep", NAME,
                   "--format", "markdown")
    assert done.returncode == 1, done.stderr
    assert "\\$x^2\\$ and \\$\\$y\\$\\$" in done.stdout, done.stdout
    assert _unescaped_dollar(done.stdout) == [], done.stdout
