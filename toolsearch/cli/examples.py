"""Two examples per command, printed at the end of its ``--help`` (the shipped sample files where a
command reads files, so each example runs as written from a checkout)."""

from __future__ import annotations

import argparse
from typing import Any

#: command -> two example command lines.
EXAMPLES: dict[str, tuple[str, str]] = {
    "plan": ("toolsearch plan sample_catalogs/team-workspace.yaml --context-length 200k",
             "toolsearch plan sample_catalogs/five-servers.yaml --context-length 32k --threshold-pct 2 --json"),
    "search": ("toolsearch search sample_catalogs/team-workspace.yaml -q 'create issue'",
               "toolsearch search sample_catalogs/five-servers.yaml -q 'post message' -q 'search errors' --limit 3 --json"),
    "describe": ("toolsearch describe sample_catalogs/five-servers.yaml mcp__github__create_issue",
                 "toolsearch describe sample_catalogs/five-servers.yaml mcp__github__create_issue "
                 "mcp__slack__slack_post_message --json"),
    "explain": ("toolsearch explain sample_catalogs/team-workspace.yaml -q 'create issue'",
                "toolsearch explain sample_catalogs/five-servers.yaml -q 'zebra' --limit 3"),
    "call": ("toolsearch call sample_catalogs/five-servers.yaml mcp__github__create_issue "
             "-a '{\"owner\": \"octo-org\", \"repo\": \"payments-api\", \"title\": \"Bug\"}'",
             "toolsearch call sample_catalogs/five-servers.yaml mcp__github__create_issue -a '{\"title\": 3}' --json"),
    "sweep": ("toolsearch sweep sample_catalogs/team-workspace.yaml",
              "toolsearch sweep sample_catalogs/five-servers.yaml --context-lengths 32k,200k --threshold-pcts 1,5 --csv"),
    "recommend": ("toolsearch recommend sample_catalogs/team-workspace.yaml --context-lengths 32k,200k,1m --goal names",
                  "toolsearch recommend sample_catalogs/five-servers.yaml --context-lengths 128k,1m --goal full --json"),
    "snapshot": ("toolsearch snapshot mcp.json -o catalog.yaml",
                 "toolsearch snapshot mcp.json --timeout 30 --name my-servers -o catalog.yaml"),
    "synth": ("toolsearch synth --tools 5000 --servers 50 -o synth.json",
              "toolsearch synth --tools 50000 --seed 1 -o big.json"),
    "strategies": ("toolsearch strategies sample_catalogs/team-workspace.yaml --skills sample_skills",
                   "toolsearch strategies sample_catalogs/team-workspace.yaml --skills sample_skills "
                   "--events sample_skills/events.yaml --json"),
    "eval": ("toolsearch eval sample_catalogs/team-workspace.yaml sample_catalogs/queries/team-workspace.yaml",
             "toolsearch eval sample_catalogs/japanese.yaml sample_catalogs/team-workspace.yaml "
             "sample_catalogs/queries/japanese.yaml --variant unicode --json"),
    "lint": ("toolsearch lint sample_catalogs/hard-cases.yaml",
             "toolsearch lint sample_catalogs/team-workspace.yaml --severity warning --json"),
    "diff": ("toolsearch diff docs/examples/diff-monday.yaml docs/examples/diff-tuesday.yaml --context-length 200k",
             "toolsearch diff sample_catalogs/team-workspace.yaml sample_catalogs/team-workspace.yaml "
             "--context-length-a 200k --context-length-b 32k"),
    "collapse": ("toolsearch collapse docs/examples/collapse-missed-fit.yaml --tool-names as-is --context-length 70 "
                 "--threshold-pct 100",
                 "toolsearch collapse sample_catalogs/team-workspace.yaml --context-length 32k --json"),
    "sessions": ("toolsearch sessions sample_sessions/state.db --catalog sample_catalogs/team-workspace.yaml",
                 "toolsearch sessions sample_sessions/claude-code.jsonl --catalog sample_catalogs/team-workspace.yaml "
                 "--json"),
    "app": ("toolsearch app",
            "toolsearch app --server.port 8502 --server.address 0.0.0.0"),
}


def epilog(examples: tuple[str, ...] | list[str]) -> str:
    """The ``examples:`` block that ends a command's help."""
    return "examples:\n" + "\n".join(f"  {e}" for e in examples)


def add_examples(subparsers: Any) -> None:
    """Give every subcommand in ``subparsers`` that has none yet its :data:`EXAMPLES` as the help's
    epilog (printed as written: ``RawDescriptionHelpFormatter``)."""
    for name, parser in subparsers.choices.items():
        if parser.epilog is None and name in EXAMPLES:
            parser.epilog = epilog(EXAMPLES[name])
            parser.formatter_class = argparse.RawDescriptionHelpFormatter
