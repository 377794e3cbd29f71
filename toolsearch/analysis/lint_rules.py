"""The lint rules: each rule's id and what it checks (:data:`RULES`), without the checks.

:mod:`toolsearch.analysis.lint` runs the checks and re-exports :data:`RULES`; the command line's
help lists the rules from here, so a command that does not lint does not load the checks (their
patterns take about 0.1 s of CPU to compile).
"""

from __future__ import annotations

from ..engine import constants as C
from .schema_lint import READING_RULES

#: Rule id → what it checks, in report order.
RULES: dict[str, str] = {
    "load-problem": "an item the loader skipped (error) or repaired (warning)",
    "name-invalid": "a name kept as is that OpenAI-style providers reject (^[a-zA-Z0-9_-]{1,64}$)",
    "sanitized-collision": "tools of one server that are equal after sanitizing: none is registered",
    "cross-server-collision": "a wire name produced by two servers: the later one is skipped",
    "too-many-tools": f"more than {C.PROVIDER_MAX_TOOLS} tools in one request ({', '.join(C.PROVIDER_MAX_TOOLS_PROVIDERS)})",
    "name-over-64": "a prefixed name over 64 characters, clamped with a hash suffix",
    "name-unrecognizable": "a server or tool name whose every character sanitizing replaces, so its wire name keeps none of it",
    "duplicate-in-server": "a server lists the same tool name twice; later copies are dropped",
    "description-empty": "no description (or whitespace only)",
    "description-one-word": "a one-word description",
    "description-no-ascii-words": "no ASCII word in the description: invisible to the reference search",
    "unreachable": "no probe built from the tool's own name or listing words returns it within the limit",
    "schema-large": "a schema far above the catalog's typical size",
    "description-over-2048": f"a description over {C.LINT_DESCRIPTION_MAX_CHARS:,} characters",
    "sdk-rejects": "a tool the official MCP SDK rejects, so it rejects the whole tools/list result",
    "hidden-characters": "invisible or format characters (TAG, variation-selector runs, zero-width, bidi, Cf, controls) "
                         "in text the model or the client shows",
    "model-instructions": "text addressed to the model: hidden-block markers, 'ignore previous instructions', secrecy, "
                          "requests for files or keys (also in other languages, identifiers, leetspeak, or split "
                          "across fields)",
    "data-in-url": "a link or image URL in a tool's text that would carry conversation data or secrets out",
    "lookalike-name": "a server or tool name written with look-alike characters (gіthub for github)",
    "shadowing": "a tool's text names another server's tool or tells the model how to use other servers' tools",
    "rug-pull": "a tool whose description, schemas, title or annotations changed since the baseline snapshot, "
                "or that was renamed to a look-alike",
    "server-empty": "a server that lists no tools",
    "duplicate-name": "the same tool name on several servers",
    "first-sentence-clipped": "the listing line is cut at 60 characters (ends with …)",
}
RULES.update(READING_RULES)  # schema losses, shared server names (toolsearch.analysis.schema_lint)
RULES["reserved-name"] = ("a tool whose wire name is a bridge tool's name or the wire alias a provider transport "
                          "gives the bridge (hermes_tool_search)")
