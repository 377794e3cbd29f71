"""The same catalog under other harnesses' tool-search switches.

One function per harness rule. Each takes the catalog's figures (:class:`CatalogFigures`, measured
once with the planner's own counting, so the "all schemas" figure is the plan's ``eager_tokens``)
and a context length, and returns a :class:`HarnessRow`: whether tool search is active, what the
model receives up front, what is visible, the context length at which ``active`` flips for this
catalog (``flip_at``) and the knob value that gives either outcome.

Hermes' row is the engine itself (the :class:`~toolsearch.engine.plan.Plan`). Every other row is a
*model* of documented behaviour, labeled with its source; ``docs/harnesses.md`` says what each
models, which parts could only be confirmed from third-party reports, and what is left out.

Shared assumptions of the models:

* A harness defers MCP and plugin tools (catalog kinds ``mcp`` and ``plugin``); core tools stay.
* "Tokens of the tool definitions" are counted as the plan counts a tools array
  (:func:`~toolsearch.engine.tokens.tools_array_tokens`; a harness's own estimate may differ).
* What a deferred tool leaves up front is measured as text: its name on a line (Claude Code, Qwen
  Code), or ``name: description`` (kiro-cli, Strands, count triggers). The search tool's own
  definition and the harness's framing sentence are not counted.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from ..engine.invisible import quoted
from ..engine import constants as C
from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.plan import Planner
from ..engine.registration import RegisteredTool
from ..engine.tokens import get_tokenizer, tools_array_tokens
from ..engine.wording import counted
from . import quantities as Q

# --- names and sources ------------------------------------------------------------------------

HERMES = "hermes"
CLAUDE_CODE = "claude-code"
QWEN_CODE = "qwen-code"
KIRO_CLI = "kiro-cli"
COUNT = "count"
STRANDS = "strands"
#: Harness ids in display order.
HARNESSES: tuple[str, ...] = (HERMES, CLAUDE_CODE, QWEN_CODE, KIRO_CLI, COUNT, STRANDS)
#: The column that holds ``flip_at`` in the app's and the CLI's tables: a context length, so its unit is
#: in the heading (the neighbouring "up front (tokens)" counts tool text, not context).
FLIP_COLUMN = "flips at (context length, tokens)"
HARNESS_LABELS: dict[str, str] = {
    HERMES: "Hermes Agent", CLAUDE_CODE: "Claude Code", QWEN_CODE: "Qwen Code", KIRO_CLI: "kiro-cli",
    COUNT: "Count trigger", STRANDS: "Strands DeferConditions",
}
#: Where each rule is documented (the row's ``source``).
SOURCES: dict[str, str] = {
    HERMES: "toolsearch engine: the reference behaviour (docs/reference.md)",
    CLAUDE_CODE: "https://code.claude.com/docs/en/agent-sdk/tool-search ; https://code.claude.com/docs/en/mcp",
    QWEN_CODE: "https://github.com/QwenLM/qwen-code/pull/7922",
    KIRO_CLI: "https://kiro.dev/docs/cli/mcp/tool-search/",
    COUNT: "https://docs.rs/crate/everruns-core/0.17.6/source/src/capabilities/openai_tool_search.rs",
    STRANDS: "https://strandsagents.com/docs/api/typescript/DeferConditions/",
}
#: The settings shown when none is asked for.
DEFAULT_SETTINGS: dict[str, tuple[str, ...]] = {
    HERMES: ("config",),
    CLAUDE_CODE: ("unset", "auto"),
    QWEN_CODE: ("10%",),
    KIRO_CLI: ("5%/50000",),
    COUNT: ("15",),
    STRANDS: ("schemaTokens=5%",),
}

#: Claude Code cuts an MCP tool description longer than this many characters.
CLAUDE_DESCRIPTION_MAX_CHARS = 2048
#: What it appends to a cut description (as seen in reports of the shipped binary).
CLAUDE_TRUNCATION_SUFFIX = "\u2026 [truncated]"
#: kiro-cli cuts a deferred tool's description in its compact list at 1 KB.
KIRO_DESCRIPTION_MAX_CHARS = 1024

FULL = "full schemas"
NAMES = "names"
NAMES_DESCRIPTIONS = "names + descriptions"
SUMMARIES = "server summaries"
NOTHING = "nothing"


class HarnessError(ToolsearchError):
    """A harness setting or pin that cannot be used (the message names it and what was expected)."""


# --- figures ----------------------------------------------------------------------------------

def is_harness_deferrable(tool: RegisteredTool) -> bool:
    """Whether another harness would defer this tool: an MCP or plugin tool, not a bridge name."""
    return tool.kind in ("mcp", "plugin") and bool(tool.name) and tool.name not in C.BRIDGE_NAMES


def claude_definition(tool: RegisteredTool) -> Mapping[str, Any]:
    """``tool``'s definition as Claude Code would send it: a description over 2,048 characters is
    cut there and ``… [truncated]`` appended; anything else is returned unchanged (same object)."""
    description = tool.description
    if len(description) <= CLAUDE_DESCRIPTION_MAX_CHARS:
        return tool.definition
    function = dict(tool.definition["function"])
    function["description"] = description[:CLAUDE_DESCRIPTION_MAX_CHARS] + CLAUDE_TRUNCATION_SUFFIX
    return {**tool.definition, "function": function}


@dataclass(frozen=True)
class CatalogFigures:
    """A catalog's figures for the harness models (tokens in the chosen tokenizer).

    Attributes:
        tokenizer: the tokenizer name.
        tool_count: tools in the catalog (bridge names excluded).
        eager_tokens: every tool's full definition (equals the plan's ``eager_tokens``).
        deferrable: wire names another harness defers (MCP and plugin tools, minus pins).
        deferrable_tokens: their full definitions.
        kept_tokens: the definitions that stay (core tools and pins).
        claude_deferrable_tokens / claude_kept_tokens: the same with Claude Code's 2,048-character
            description cut.
        names_tokens: the deferred tools' names, one per line.
        lines_tokens: ``name: description`` lines (descriptions cut at 1,024 characters).
        truncated: tools whose description Claude Code cuts.
        pinned: wire names kept out of deferral.
    """

    tokenizer: str
    tool_count: int
    eager_tokens: int
    deferrable: tuple[str, ...]
    deferrable_tokens: int
    kept_tokens: int
    claude_deferrable_tokens: int
    claude_kept_tokens: int
    names_tokens: int
    lines_tokens: int
    truncated: tuple[str, ...] = ()
    pinned: tuple[str, ...] = ()


def catalog_figures(planner: Planner, tools: Sequence[RegisteredTool] | None = None,
                    tokenizer: str = C.DEFAULT_TOKENIZER, pinned: Iterable[str] = ()) -> CatalogFigures:
    """Measure ``tools`` (default: the planner's whole catalog) for the harness models.

    Each group of definitions is measured as a tools array with
    :func:`~toolsearch.engine.tokens.tools_array_tokens`, the function behind the plan's "All schemas
    up front", so ``eager_tokens`` for the whole catalog is the plan's ``eager_tokens``.

    Args:
        planner: the catalog's planner.
        tools: a subset of its registered tools (e.g. the servers connected so far).
        tokenizer: ``chars4``, ``o200k_base`` or ``cl100k_base``.
        pinned: wire names that stay out of deferral (``alwaysLoad``, proposed Hermes pins).

    Raises:
        TokenizerError: an unknown tokenizer.
    """
    tk = get_tokenizer(tokenizer)
    pins = set(pinned)
    pool = [t for t in (planner.tools if tools is None else tools) if t.name not in C.BRIDGE_NAMES]
    deferred = [t for t in pool if is_harness_deferrable(t) and t.name not in pins]
    deferred_names = {t.name for t in deferred}
    kept = [t for t in pool if t.name not in deferred_names]
    names_text = "\n".join(sorted(t.name for t in deferred))
    lines_text = "\n".join(f"{t.name}: {t.description[:KIRO_DESCRIPTION_MAX_CHARS]}"
                           for t in sorted(deferred, key=lambda t: t.name))
    return CatalogFigures(
        tokenizer=tokenizer, tool_count=len(pool),
        eager_tokens=tools_array_tokens([t.definition for t in pool], tokenizer),
        deferrable=tuple(sorted(deferred_names)),
        deferrable_tokens=tools_array_tokens([t.definition for t in deferred], tokenizer),
        kept_tokens=tools_array_tokens([t.definition for t in kept], tokenizer),
        claude_deferrable_tokens=tools_array_tokens([claude_definition(t) for t in deferred], tokenizer),
        claude_kept_tokens=tools_array_tokens([claude_definition(t) for t in kept], tokenizer),
        names_tokens=tk.count(names_text) if deferred else 0,
        lines_tokens=tk.count(lines_text) if deferred else 0,
        truncated=tuple(sorted(t.name for t in pool if len(t.description) > CLAUDE_DESCRIPTION_MAX_CHARS)),
        pinned=tuple(sorted(pins & {t.name for t in pool})),
    )


# --- rows -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HarnessRow:
    """One harness rule at one context length for one catalog.

    Attributes:
        harness / setting: e.g. ``claude-code`` / ``auto:5``.
        context_length: tokens.
        active: tool search is on (some tools deferred).
        upfront_tokens: what the model receives up front for the catalog's tools (tokens).
        visible: ``full schemas`` | ``names`` | ``names + descriptions`` | ``server summaries`` | ``nothing``
            (for the deferred tools; tools that stay are always sent in full).
        flip_at: the smallest context length (tokens) at which ``active`` is the opposite of its
            value at small lengths, for this catalog; ``None`` when it never changes.
        source: where the rule is documented.
        exact: True for the engine (Hermes), False for a model.
        knob: the knob value for either outcome at this context length, in words.
        deferred_count / measured_tokens: tools deferred when active, and the token figure the
            rule compares (tokens).
        notes: assumptions and caveats for this row.
    """

    harness: str
    setting: str
    context_length: int
    active: bool
    upfront_tokens: int
    visible: str
    flip_at: int | None
    source: str
    exact: bool = False
    knob: str = ""
    deferred_count: int = 0
    measured_tokens: int = 0
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The ``harnesses --json`` row: the contract keys, then extras."""
        return {"harness": self.harness, "setting": self.setting, "context_length": self.context_length,
                "active": self.active, "upfront_tokens": self.upfront_tokens, "visible": self.visible,
                "flip_at": self.flip_at, "source": self.source, "exact": self.exact, "knob": self.knob,
                "deferred_count": self.deferred_count, "measured_tokens": self.measured_tokens,
                "notes": list(self.notes)}


#: A table cell where a row has no flip point (``flip_at`` is ``None``: the length plays no part),
#: on the Harnesses page and in ``toolsearch harnesses`` alike.
NO_FLIP = "\u2014"
#: The ``kind`` of a row: the engine itself (Hermes) or a labeled model of documented behaviour.
EXACT_KIND, MODEL_KIND = "exact", "model"
#: The columns of one context length's table, on the Harnesses page and in ``toolsearch harnesses``.
ROW_COLUMNS: tuple[str, ...] = ("harness", "kind", "setting", "active", "up front (tokens)", "visible", FLIP_COLUMN)


def kind_word(exact: bool) -> str:
    """A row's ``kind`` column: :data:`EXACT_KIND` for the engine, :data:`MODEL_KIND` for a model."""
    return EXACT_KIND if exact else MODEL_KIND


def row_cells(row: HarnessRow) -> dict[str, str]:
    """One row of a context length's table (:data:`ROW_COLUMNS` → text), as the Harnesses page and
    ``toolsearch harnesses`` both show it: token counts and the flip point with thousands
    separators, :data:`NO_FLIP` where there is none."""
    return {"harness": HARNESS_LABELS[row.harness], "kind": kind_word(row.exact), "setting": row.setting,
            "active": "yes" if row.active else "no", "up front (tokens)": f"{row.upfront_tokens:,}",
            "visible": row.visible, FLIP_COLUMN: NO_FLIP if row.flip_at is None else f"{row.flip_at:,}"}


def length_heading(context_length: int) -> str:
    """The heading over one context length's rows, on the page and in the CLI: ``At 200K``, ``At 1M``,
    ``At 12,345 tokens`` (the length as sentences write it, :func:`~toolsearch.analysis.quantities.length_in_words`)."""
    return f"At {Q.length_in_words(context_length)}"


def _fraction(value: float | int | str) -> Fraction:
    return Fraction(str(value))


def flip_when_exceeds(tokens: int, pct: float) -> int | None:
    """For a rule "active while ``tokens`` > pct % of the context length": the smallest context length
    (tokens) at which it is no longer active; ``None`` if that never happens (pct 0 or no tokens)."""
    p = _fraction(pct)
    if tokens <= 0 or p <= 0:
        return None
    return max(1, math.ceil(Fraction(tokens * 100) / p))


def flip_when_at_or_above(tokens: int, pct: float) -> int | None:
    """For a rule "active while ``tokens`` ≥ pct % of the context length": the smallest context length
    at which it is no longer active; ``None`` if never (pct 0 or no tokens)."""
    p = _fraction(pct)
    if tokens <= 0 or p <= 0:
        return None
    return math.floor(Fraction(tokens * 100) / p) + 1


def max_pct_exceeded(tokens: int, context_length: int) -> int | None:
    """The largest whole percentage N (0..100) with ``tokens`` > N % of ``context_length``, or
    ``None`` when even 0 % is not exceeded (no tokens)."""
    if tokens <= 0:
        return None
    return min(100, math.ceil(Fraction(tokens * 100, context_length)) - 1)


def max_pct_reached(tokens: int, context_length: int) -> int | None:
    """The largest whole percentage N (1..100) with ``tokens`` ≥ N % of ``context_length``, or
    ``None`` when not even 1 % is reached."""
    n = min(100, math.floor(Fraction(tokens * 100, context_length)))
    return n if n >= 1 else None


_k = Q.length_label  # a length as every surface writes it in prose: 200K, 1M, 12,345 tokens


def _pct_text(value: float) -> str:
    return f"{value:g}"


# Claude Code ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClaudeSetting:
    """``ENABLE_TOOL_SEARCH`` parsed: ``mode`` is ``unset`` | ``true`` | ``auto`` | ``false``; ``pct``
    the ``auto`` threshold (10 unless ``auto:N``); ``first_party`` whether ``ANTHROPIC_BASE_URL`` is
    Anthropic's own (when it is not, an unset variable means no tool search)."""

    mode: str
    pct: float = 10.0
    first_party: bool = True

    @property
    def text(self) -> str:
        """The setting as written (``auto``, ``auto:5``, ``true``, ``false``, ``unset``), or
        ``unset, third-party base URL``."""
        if self.mode == "auto":
            return "auto" if self.pct == 10.0 else f"auto:{_pct_text(self.pct)}"
        if self.mode == "unset" and not self.first_party:
            return "unset, third-party base URL"
        return self.mode


def parse_claude_setting(text: str) -> ClaudeSetting:
    """Parse an ``ENABLE_TOOL_SEARCH`` value: ``unset`` (or empty), ``unset-third-party``, ``true``,
    ``auto``, ``auto:N`` (N a number 0..100) or ``false``.

    Raises:
        HarnessError: anything else, or N outside 0..100.
    """
    value = text.strip().lower()
    if value in ("", "unset"):
        return ClaudeSetting("unset")
    if value in ("unset-third-party", "third-party"):
        return ClaudeSetting("unset", first_party=False)
    if value in ("true", "false"):
        return ClaudeSetting(value)
    if value == "auto":
        return ClaudeSetting("auto")
    if value.startswith("auto:"):
        try:
            pct = float(value[5:])
        except ValueError:
            pct = -1.0
        if not 0 <= pct <= 100 or math.isnan(pct):
            raise HarnessError(f"claude-code setting {quoted(text)}: expected auto:N with N a number from 0 to 100")
        return ClaudeSetting("auto", pct)
    raise HarnessError(f"claude-code setting {quoted(text)}: expected unset, unset-third-party, true, auto, auto:N or false")


def claude_code_active(setting: ClaudeSetting, mcp_tokens: int, context_length: int, has_mcp_tools: bool = True) -> bool:
    """Whether Claude Code defers MCP tools.

    unset: yes with Anthropic's own base URL, no with another; ``true``: yes; ``false``: no;
    ``auto``/``auto:N``: yes when the MCP tool definitions' tokens exceed N % of the context
    window (N = 10 for ``auto``). Never without MCP tools.
    """
    if not has_mcp_tools:
        return False
    if setting.mode == "unset":
        return setting.first_party
    if setting.mode == "true":
        return True
    if setting.mode == "false":
        return False
    return Fraction(mcp_tokens * 100) > _fraction(setting.pct) * context_length


def claude_code(figures: CatalogFigures, context_length: int, setting: ClaudeSetting | str = "unset") -> HarnessRow:
    """Claude Code's ``ENABLE_TOOL_SEARCH`` rule for the catalog at ``context_length``.

    Deferred tools are announced by name; tools pinned with ``alwaysLoad`` stay in full.
    Descriptions over 2,048 characters are cut before anything is counted or sent.
    """
    s = parse_claude_setting(setting) if isinstance(setting, str) else setting
    tokens = figures.claude_deferrable_tokens
    has = bool(figures.deferrable)
    active = claude_code_active(s, tokens, context_length, has)
    flip = flip_when_exceeds(tokens, s.pct) if s.mode == "auto" and has else None
    upfront = figures.claude_kept_tokens + (figures.names_tokens if active else tokens)
    n = max_pct_exceeded(tokens, context_length)
    if not has:
        knob = "no MCP tools: nothing to defer"
    elif n is None or n >= 100:
        knob = f"auto:N defers at {_k(context_length)} for any N; false sends every schema"
    else:
        knob = (f"with auto:N, N \u2264 {n} defers at {_k(context_length)}; N \u2265 {n + 1} sends every schema "
                f"(unset and true always defer, false never)")
    notes = []
    if figures.truncated:
        notes.append(f"{counted(len(figures.truncated), 'description')} over {CLAUDE_DESCRIPTION_MAX_CHARS:,} "
                     f"characters cut by Claude Code")
    if figures.pinned:
        notes.append(f"{counted(len(figures.pinned), 'tool')} pinned with alwaysLoad")
    return HarnessRow(CLAUDE_CODE, s.text, context_length, active, upfront, NAMES if active else FULL, flip,
                      SOURCES[CLAUDE_CODE], False, knob, len(figures.deferrable) if active else 0, tokens, tuple(notes))


# Qwen Code -----------------------------------------------------------------------------------

def parse_pct(text: str, what: str) -> float:
    """``"10"`` or ``"10%"`` → 10.0. Raises :class:`HarnessError` outside 0..100."""
    raw = text.strip().rstrip("%").strip()
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100 or math.isnan(value):
        raise HarnessError(f"{what} {quoted(text)}: expected a percentage from 0 to 100")
    return value


def qwen_code_active(threshold_pct: float, mcp_tokens: int, context_length: int, has_mcp_tools: bool = True) -> bool:
    """Whether Qwen Code keeps MCP tools deferred at session start: threshold 0 always defers;
    otherwise they are preloaded when their estimated tokens fit within threshold % of the
    context window (≤), deferred when they exceed it."""
    if not has_mcp_tools:
        return False
    if threshold_pct == 0:
        return True
    return Fraction(mcp_tokens * 100) > _fraction(threshold_pct) * context_length


def qwen_code(figures: CatalogFigures, context_length: int, threshold_pct: float | str = 10.0) -> HarnessRow:
    """Qwen Code's ``tools.toolSearch.threshold`` rule, decided at session start (and, as reported,
    again after ``/clear`` or a compression), never mid-session."""
    pct = parse_pct(threshold_pct, "qwen-code threshold") if isinstance(threshold_pct, str) else float(threshold_pct)
    tokens = figures.deferrable_tokens
    has = bool(figures.deferrable)
    active = qwen_code_active(pct, tokens, context_length, has)
    flip = flip_when_exceeds(tokens, pct) if has else None
    n = max_pct_exceeded(tokens, context_length)
    if not has:
        knob = "no MCP tools: nothing to defer"
    elif n is None or n >= 100:
        knob = f"any threshold defers at {_k(context_length)}"
    else:
        knob = (f"with tools.toolSearch.threshold N, N \u2264 {n} defers at {_k(context_length)}; "
                f"N \u2265 {n + 1} preloads every schema (0 always defers)")
    return HarnessRow(QWEN_CODE, f"threshold {_pct_text(pct)}%", context_length, active,
                      figures.kept_tokens + (figures.names_tokens if active else tokens), NAMES if active else FULL,
                      flip, SOURCES[QWEN_CODE], False, knob, len(figures.deferrable) if active else 0, tokens,
                      ("decided at session start; a server added later changes nothing until the next one",))


# kiro-cli ------------------------------------------------------------------------------------

def parse_kiro_setting(text: str) -> tuple[bool, float, int]:
    """``"5%/50000"`` → ``(True, 5.0, 50000)``; ``"off"`` → disabled (kiro-cli's default).

    Raises:
        HarnessError: another shape, a percentage outside 0..100 or a negative token count.
    """
    value = text.strip().lower()
    if value in ("off", "disabled", "false"):
        return False, 5.0, 50_000
    pct_text, sep, tokens_text = value.partition("/")
    if not sep:
        raise HarnessError(f"kiro-cli setting {quoted(text)}: expected MINPCT%/MINTOKENS (e.g. 5%/50000) or off")
    pct = parse_pct(pct_text, "kiro-cli minPct")
    try:
        tokens = int(tokens_text.replace(",", "").replace("_", "").strip())
    except ValueError:
        tokens = -1
    if tokens < 0:
        raise HarnessError(f"kiro-cli setting {quoted(text)}: minTokens must be a whole number \u2265 0")
    return True, pct, tokens


def kiro_cli_active(enabled: bool, min_pct: float, min_tokens: int, mcp_tokens: int, context_length: int,
                    has_mcp_tools: bool = True) -> bool:
    """Whether kiro-cli's Tool Search is active: enabled, MCP tools present, and their specs exceed
    min_pct % of the context window **or** min_tokens (both 0: always active)."""
    if not enabled or not has_mcp_tools:
        return False
    if min_pct == 0 and min_tokens == 0:
        return True
    return (Fraction(mcp_tokens * 100) > _fraction(min_pct) * context_length) or mcp_tokens > min_tokens


def kiro_cli(figures: CatalogFigures, context_length: int, setting: str = "5%/50000") -> HarnessRow:
    """kiro-cli's ``toolSearch.minPct`` / ``toolSearch.minTokens`` rule (``toolSearch.enabled`` is off
    by default; the default setting here models it switched on)."""
    enabled, pct, min_tokens = parse_kiro_setting(setting)
    tokens = figures.deferrable_tokens
    has = bool(figures.deferrable)
    active = kiro_cli_active(enabled, pct, min_tokens, tokens, context_length, has)
    flip = None
    if enabled and has and not (pct == 0 and min_tokens == 0) and tokens <= min_tokens:
        flip = flip_when_exceeds(tokens, pct)
    if not has:
        knob = "no MCP tools: nothing to defer"
    elif tokens > min_tokens:
        knob = (f"the MCP specs ({tokens:,} tokens) exceed toolSearch.minTokens, so any minPct defers; "
                f"minTokens \u2265 {tokens:,} leaves it to minPct")
    else:
        n = max_pct_exceeded(tokens, context_length)
        knob = (f"with toolSearch.minPct N, N \u2264 {n} defers at {_k(context_length)}; N \u2265 {n + 1} sends "
                f"every schema (while minTokens \u2265 {tokens:,})") if n is not None and n < 100 else \
            f"any minPct defers at {_k(context_length)}"
    text = "off (default)" if not enabled else f"minPct {_pct_text(pct)}% or minTokens {min_tokens:,}"
    return HarnessRow(KIRO_CLI, text, context_length, active,
                      figures.kept_tokens + (figures.lines_tokens if active else tokens),
                      NAMES_DESCRIPTIONS if active else FULL, flip, SOURCES[KIRO_CLI], False, knob,
                      len(figures.deferrable) if active else 0, tokens)


# Count trigger -------------------------------------------------------------------------------

def parse_count(text: str, what: str) -> int:
    """A whole number ≥ 1. Raises :class:`HarnessError` otherwise."""
    try:
        value = int(str(text).replace(",", "").replace("_", "").strip())
    except ValueError:
        value = 0
    if value < 1:
        raise HarnessError(f"{what} {quoted(text)}: expected a whole number \u2265 1")
    return value


def count_active(min_tools: int, tool_count: int, has_deferrable: bool = True) -> bool:
    """A count trigger: defer from ``min_tools`` tools on (at or above)."""
    return has_deferrable and tool_count >= min_tools


def count_trigger(figures: CatalogFigures, context_length: int, min_tools: int | str = 15) -> HarnessRow:
    """A tool-count trigger (full schemas below ``min_tools`` tools, deferral from it on); the
    context length plays no part, so ``flip_at`` is ``None``."""
    n = parse_count(min_tools, "count setting") if isinstance(min_tools, str) else int(min_tools)
    has = bool(figures.deferrable)
    active = count_active(n, figures.tool_count, has)
    knob = (f"{figures.tool_count} tools: a trigger \u2264 {figures.tool_count} defers, "
            f"\u2265 {figures.tool_count + 1} sends every schema") if has else "no MCP tools: nothing to defer"
    return HarnessRow(COUNT, f"from {n} tools", context_length, active,
                      figures.kept_tokens + (figures.lines_tokens if active else figures.deferrable_tokens),
                      NAMES_DESCRIPTIONS if active else FULL, None, SOURCES[COUNT], False, knob,
                      len(figures.deferrable) if active else 0, figures.tool_count)


# Strands -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StrandsConditions:
    """``DeferConditions``: ``tool_count`` (defer at or above N tools), ``schema_tokens`` (at or above N
    tokens) or ``schema_pct`` (at or above N % of the context window). Any one is enough; with none,
    it always defers."""

    tool_count: int | None = None
    schema_tokens: int | None = None
    schema_pct: float | None = None

    @property
    def text(self) -> str:
        """The conditions as written, joined with ``+`` (``toolCount=20+schemaTokens=10%``), or
        ``no conditions``."""
        parts = []
        if self.tool_count is not None:
            parts.append(f"toolCount={self.tool_count}")
        if self.schema_tokens is not None:
            parts.append(f"schemaTokens={self.schema_tokens}")
        if self.schema_pct is not None:
            parts.append(f"schemaTokens={_pct_text(self.schema_pct)}%")
        return "+".join(parts) or "no conditions"


def parse_strands(text: str) -> StrandsConditions:
    """``toolCount=15``, ``schemaTokens=8000``, ``schemaTokens=5%``, joined with ``+``, or ``none``.

    Raises:
        HarnessError: an unknown key or a bad value.
    """
    value = text.strip()
    if value.lower() in ("none", ""):
        return StrandsConditions()
    conditions = StrandsConditions()
    for part in value.split("+"):
        key, sep, raw = part.partition("=")
        key = key.strip()
        if not sep:
            raise HarnessError(f"strands setting {quoted(text)}: expected toolCount=N, schemaTokens=N or schemaTokens=N%")
        if key == "toolCount":
            conditions = replace(conditions, tool_count=parse_count(raw, "strands toolCount"))
        elif key == "schemaTokens" and raw.strip().endswith("%"):
            conditions = replace(conditions, schema_pct=parse_pct(raw, "strands schemaTokens"))
        elif key == "schemaTokens":
            conditions = replace(conditions, schema_tokens=parse_count(raw, "strands schemaTokens"))
        else:
            raise HarnessError(f"strands setting {quoted(text)}: unknown condition {quoted(key)} (toolCount or schemaTokens)")
    return conditions


def strands_active(conditions: StrandsConditions, tool_count: int, schema_tokens: int, context_length: int,
                   has_deferrable: bool = True) -> bool:
    """Strands ``DeferConditions`` on one model call: any condition met is enough (at or above);
    with none set it defers at any tool count."""
    if not has_deferrable:
        return False
    c = conditions
    if c.tool_count is None and c.schema_tokens is None and c.schema_pct is None:
        return True
    return ((c.tool_count is not None and tool_count >= c.tool_count)
            or (c.schema_tokens is not None and schema_tokens >= c.schema_tokens)
            or (c.schema_pct is not None and Fraction(schema_tokens * 100) >= _fraction(c.schema_pct) * context_length))


def strands(figures: CatalogFigures, context_length: int, conditions: StrandsConditions | str = "schemaTokens=5%") -> HarnessRow:
    """Strands' ``Offload.defer`` with ``DeferConditions``, checked on every model call; deferred
    tools keep their name and description."""
    c = parse_strands(conditions) if isinstance(conditions, str) else conditions
    tokens = figures.deferrable_tokens
    has = bool(figures.deferrable)
    active = strands_active(c, figures.tool_count, tokens, context_length, has)
    fixed = strands_active(replace(c, schema_pct=None), figures.tool_count, tokens, context_length, has) \
        if (c.tool_count is not None or c.schema_tokens is not None) else False
    flip = flip_when_at_or_above(tokens, c.schema_pct) if (has and c.schema_pct is not None and not fixed) else None
    n = max_pct_reached(tokens, context_length)
    if not has:
        knob = "no MCP tools: nothing to defer"
    elif n is None:
        knob = f"the schemas are under 1% of {_k(context_length)}: schemaTokens=N% defers for no N \u2265 1"
    else:
        knob = (f"with schemaTokens=N%, N \u2264 {n} defers at {_k(context_length)}; toolCount \u2264 "
                f"{figures.tool_count} defers at any length")
    return HarnessRow(STRANDS, c.text, context_length, active,
                      figures.kept_tokens + (figures.lines_tokens if active else tokens),
                      NAMES_DESCRIPTIONS if active else FULL, flip, SOURCES[STRANDS], False, knob,
                      len(figures.deferrable) if active else 0, tokens)


# Hermes (exact) ------------------------------------------------------------------------------

#: What a Hermes listing form shows of the deferred tools: ``full`` lists every tool with its short
#: description, ``mixed`` names some servers' tools and sums up the others.
_FORM_VISIBLE = {"full": NAMES_DESCRIPTIONS, "names": NAMES, "mixed": NAMES, "groups": SUMMARIES, "none": NOTHING}


def hermes(inspector: Inspector, context_length: int, config: ToolSearchConfig | None = None,
           tokenizer: str = C.DEFAULT_TOKENIZER, setting: str | None = None) -> HarnessRow:
    """Hermes' row: the engine's plan itself. Activation does not depend on the context length
    (any deferrable tool activates the bridge), so ``flip_at`` is ``None``; the length only sizes
    the listing. ``setting`` (``auto``/``on``/``off``) replaces the config's ``enabled``.

    Raises:
        HarnessError: a setting other than auto, on, off or config.
        TokenizerError: an unknown tokenizer name.
    """
    cfg = config or ToolSearchConfig()
    if setting not in (None, "config"):
        value = setting.strip().lower()
        if value not in C.TRI_STATE_VALUES:
            raise HarnessError(f"hermes setting {quoted(setting)}: expected auto, on, off or config")
        cfg = replace(cfg, enabled=value)
    plan = inspector.plan(cfg, context_length, tokenizer)
    visible = _FORM_VISIBLE.get(plan.listing_form, NAMES) if plan.activated else FULL
    if not plan.deferred_count:
        knob = "nothing deferrable: every schema is sent"
    elif plan.activated:
        knob = (f"enabled: off sends every schema; at {_k(context_length)} the listing form is "
                f"{Q.form_word(plan.listing_form)} (budget {Q.budget(plan):,} tokens: threshold_pct and listing_max_tokens size it)")
    else:
        knob = "enabled: auto or on defers every deferrable tool at any context length"
    return HarnessRow(HERMES, f"enabled: {cfg.enabled}", context_length, plan.activated, Q.tools_array(plan), visible,
                      None, SOURCES[HERMES], True, knob, plan.deferred_count if plan.activated else 0,
                      Q.deferred_schemas(plan), tuple(plan.notes))


# --- all rows ---------------------------------------------------------------------------------

def parse_settings(items: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """``HARNESS=VALUE`` items → ``{harness: (value, ...)}`` in the order given (repeat a harness for
    several settings). Each value is checked by the harness's parser.

    Raises:
        HarnessError: an unknown harness, a missing ``=`` or a bad value.
    """
    out: dict[str, list[str]] = {}
    for item in items:
        harness, sep, value = item.partition("=")
        harness = harness.strip()
        if not sep or harness not in HARNESSES:
            raise HarnessError(f"setting {quoted(item)}: expected HARNESS=VALUE with HARNESS one of {', '.join(HARNESSES)}")
        _check(harness, value)
        out.setdefault(harness, []).append(value.strip())
    return {k: tuple(v) for k, v in out.items()}


def _check(harness: str, value: str) -> None:
    if harness == CLAUDE_CODE:
        parse_claude_setting(value)
    elif harness == QWEN_CODE:
        parse_pct(value, "qwen-code threshold")
    elif harness == KIRO_CLI:
        parse_kiro_setting(value)
    elif harness == COUNT:
        parse_count(value, "count setting")
    elif harness == STRANDS:
        parse_strands(value)
    elif value.strip().lower() not in C.TRI_STATE_VALUES + ("config",):
        raise HarnessError(f"hermes setting {quoted(value)}: expected auto, on, off or config")


def harness_row(harness: str, setting: str, inspector: Inspector, figures: CatalogFigures, context_length: int,
                config: ToolSearchConfig | None = None, tokenizer: str = C.DEFAULT_TOKENIZER) -> HarnessRow:
    """One row: dispatch to the harness's rule function (``context_length`` in tokens).

    Raises:
        HarnessError: an unknown harness or a bad setting.
        TokenizerError: an unknown tokenizer name.
    """
    if harness == HERMES:
        return hermes(inspector, context_length, config, tokenizer, setting)
    if harness == CLAUDE_CODE:
        return claude_code(figures, context_length, setting)
    if harness == QWEN_CODE:
        return qwen_code(figures, context_length, setting)
    if harness == KIRO_CLI:
        return kiro_cli(figures, context_length, setting)
    if harness == COUNT:
        return count_trigger(figures, context_length, setting)
    if harness == STRANDS:
        return strands(figures, context_length, setting)
    raise HarnessError(f"unknown harness {quoted(harness)}: expected one of {', '.join(HARNESSES)}")


def harness_rows(inspector: Inspector, context_lengths: Sequence[int], config: ToolSearchConfig | None = None,
                 tokenizer: str = C.DEFAULT_TOKENIZER, settings: Mapping[str, Sequence[str]] | None = None,
                 harnesses: Sequence[str] = HARNESSES) -> list[HarnessRow]:
    """Every harness rule at every context length, grouped by context length (then harness order).

    Args:
        inspector: the loaded catalog.
        context_lengths: known context lengths in tokens (each ≥ 1).
        config: Hermes' ``tools.tool_search`` settings (default: the defaults).
        tokenizer: counts every figure.
        settings: ``{harness: settings}`` replacing :data:`DEFAULT_SETTINGS` for those harnesses.
        harnesses: which harnesses, in order.

    Raises:
        HarnessError: an unknown harness, a bad setting or a context length below 1.
        TokenizerError: an unknown tokenizer name.
    """
    chosen = {**DEFAULT_SETTINGS, **(settings or {})}
    figures = catalog_figures(inspector.planner, tokenizer=tokenizer)
    rows = []
    for length in context_lengths:
        if length is None or length < 1:
            raise HarnessError(f"context length {quoted(length)}: the harness rules need a known length of at least 1 token")
        for harness in harnesses:
            for setting in chosen.get(harness, ()):
                rows.append(harness_row(harness, setting, inspector, figures, length, config, tokenizer))
    return rows


# --- pins (what-if) ---------------------------------------------------------------------------

#: Hermes' pins are a proposal, not in released Hermes.
HERMES_PINS_NOTE = ("not in released Hermes: mcp_servers.<name>.defer: false and tools.tool_search.eager "
                    "are a proposal (open pull request)")


def resolve_pins(inspector: Inspector, servers: Iterable[str] = (), tools: Iterable[str] = ()) -> tuple[str, ...]:
    """Wire names pinned by server names and by tool names (wire names, a server's own tool names, or
    ``mcp-<server>`` toolsets as Hermes' proposed ``eager`` list takes them). Sorted, no repeats.

    Raises:
        HarnessError: a server or tool not in the catalog (the message names it).
    """
    registered = [t for t in inspector.registration.tools if t.name not in C.BRIDGE_NAMES]
    by_server: dict[str, list[str]] = {}
    for t in registered:
        by_server.setdefault(t.server, []).append(t.name)
    out: set[str] = set()
    for server in servers:
        if server not in by_server:
            raise HarnessError(f"pin: no server named {quoted(server)} in the catalog")
        out.update(by_server[server])
    for name in tools:
        hits = [t.name for t in registered if name in (t.name, t.raw_name, t.toolset)]
        if not hits:
            raise HarnessError(f"pin: no tool or toolset named {quoted(name)} in the catalog")
        out.update(hits)
    return tuple(sorted(out))


def most_called_tools(sessions: Iterable[Any], inspector: Inspector, limit: int = 5) -> tuple[tuple[str, int], ...]:
    """The recorded sessions' most-called catalog tools, ``((wire name, calls), ...)``, most calls
    first (ties by name); tools not in the catalog and bridge names are left out."""
    known = {t.name for t in inspector.registration.tools if t.name not in C.BRIDGE_NAMES}
    counts = Counter(e.name for s in sessions for e in s.calls if e.name in known)
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:max(0, limit)])


def first_uses(sessions: Iterable[Any], names: Iterable[str]) -> dict[str, int]:
    """How often each tool was used for the first time in a session or since the last compaction
    (what a deferred tool pays discovery for), ``{wire name: count}``."""
    wanted = set(names)
    out = {n: 0 for n in sorted(wanted)}
    for session in sessions:
        seen: set[str] = set()
        for event in session.events:
            if event.kind == "compaction":
                seen = set()
            elif event.kind == "call" and event.name in wanted and event.name not in seen:
                seen.add(event.name)
                out[event.name] += 1
    return out


def discovery_before_first_uses(sessions: Iterable[Any], names: Iterable[str]) -> dict[str, int]:
    """The discovery calls the recorded sessions made just before each first use of each tool
    (:func:`first_uses`: per session, and again after a compaction), summed, ``{wire name: calls}``:
    the round trips a pin would have saved in them. A discovery call is a ``tool_search`` or
    ``tool_describe`` call (or another search tool's: the calls
    :attr:`toolsearch.analysis.sessions.Session.round_trips` counts); "just before" is since the
    session's previous tool call, as ``searches_saved`` counts the searches a listing saves. A first
    use with none before it (the model called the tool from a listing, or guessed its name) saves none."""
    wanted = set(names)
    out = {n: 0 for n in sorted(wanted)}
    for session in sessions:
        seen: set[str] = set()
        pending = 0
        for event in session.events:
            if event.kind == "compaction":
                seen = set()
            elif event.kind in ("search", "describe"):
                pending += 1
            elif event.kind == "call":
                if event.name in wanted and event.name not in seen:
                    seen.add(event.name)
                    out[event.name] += pending
                pending = 0
    return out


#: The heading of :attr:`PinnedTool.schema_tokens` in a table (the Tuning page's hot tools): one pinned
#: tool's definition measured as a tools array of that tool alone. Its own name: not "full schemas" (a
#: harness row's form, what the model sees) nor "tool schema" (the Costs page's figure, the definition
#: counted alone, which a BPE tokenizer can count a token apart).
PINNED_SCHEMA_COLUMN = "pinned schema"
#: What :data:`PINNED_SCHEMA_COLUMN` counts, in a sentence.
PINNED_SCHEMA_WORDS = ("Pinned schema: the tool's definition as a pin sends it on every request, measured as a tools "
                       "array of that tool alone.")


@dataclass(frozen=True)
class PinnedTool:
    """One pinned tool: ``schema_tokens`` (its full definition, tokens), recorded ``calls``,
    ``first_uses`` (each one a discovery the pin saves) and ``discovery_calls``: the discovery calls
    the sessions made just before those first uses (:func:`discovery_before_first_uses`)."""

    name: str
    schema_tokens: int
    calls: int
    first_uses: int
    discovery_calls: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the attributes under their own names (``schema_tokens`` in tokens)."""
        return {"name": self.name, "schema_tokens": self.schema_tokens, "calls": self.calls,
                "first_uses": self.first_uses, "discovery_calls": self.discovery_calls}


@dataclass(frozen=True)
class PinWhatIf:
    """Pinning tools for one harness at one context length.

    Attributes:
        harness: ``claude-code`` (``alwaysLoad``) or ``hermes`` (proposed ``defer: false`` / ``eager``).
        pinned: wire names.
        before / after: the harness row without and with the pins.
        cost_tokens: ``after.upfront_tokens - before.upfront_tokens``: paid on every request.
        round_trips_saved: the discovery calls (``tool_search``, ``tool_describe``) the recorded
            sessions made just before the pinned tools' first uses, as recorded
            (:func:`discovery_before_first_uses`; ``None`` without sessions, 0 where tool search is
            off without the pins).
        per_tool: per pinned tool.
        sessions: recorded sessions used.
        released: False for Hermes' proposal.
        notes: caveats.
    """

    harness: str
    pinned: tuple[str, ...]
    before: HarnessRow
    after: HarnessRow
    cost_tokens: int
    round_trips_saved: int | None
    per_tool: tuple[PinnedTool, ...]
    sessions: int
    released: bool
    notes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The harness as the pins' rows name it, on the page and in the CLI: ``Claude Code``,
        ``Hermes Agent (not released)``."""
        return HARNESS_LABELS[self.harness] + ("" if self.released else " (not released)")

    @property
    def setting(self) -> str:
        """The row's setting: the harness setting plus the pins, e.g. ``unset + alwaysLoad (3 tools)``."""
        pin = "alwaysLoad" if self.harness == CLAUDE_CODE else "eager pins (proposed)"
        return f"{self.after.setting} + {pin} ({len(self.pinned)} tool{'s' if len(self.pinned) != 1 else ''})"

    def row_dict(self) -> dict[str, Any]:
        """A ``harnesses --json`` row for the pinned setting: :meth:`HarnessRow.to_dict` of ``after``
        with this setting, then ``pinned``, ``cost_tokens``, ``round_trips_saved`` and ``released``."""
        row = self.after.to_dict()
        row["setting"] = self.setting
        row["notes"] = [*row["notes"], *self.notes]
        row.update({"pinned": list(self.pinned), "cost_tokens": self.cost_tokens,
                    "round_trips_saved": self.round_trips_saved, "released": self.released})
        return row

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``cost_tokens``, ``upfront_before`` and ``upfront_after`` in tokens."""
        return {"harness": self.harness, "pinned": list(self.pinned), "context_length": self.after.context_length,
                "cost_tokens": self.cost_tokens, "upfront_before": self.before.upfront_tokens,
                "upfront_after": self.after.upfront_tokens, "active_before": self.before.active,
                "active_after": self.after.active, "round_trips_saved": self.round_trips_saved,
                "per_tool": [p.to_dict() for p in self.per_tool], "sessions": self.sessions,
                "released": self.released, "notes": list(self.notes)}


def pinned_inspector(inspector: Inspector, pinned: Iterable[str]) -> Inspector:
    """A copy of ``inspector`` whose pinned tools are never deferred, as Hermes' proposed pins would
    have it: they are classified like core tools (visible unless named in ``defer``)."""
    pins = set(pinned)
    tools = tuple(replace(t, kind="core") if t.name in pins else t for t in inspector.registration.tools)
    copy = object.__new__(Inspector)
    copy.__dict__.update(inspector.__dict__)
    copy.registration = replace(inspector.registration, tools=tools)
    copy.full_registration = copy.registration
    copy.planner = Planner(copy.registration, inspector.profile)
    copy._bridges = {}
    copy._root = copy
    copy._scoped = {}
    return copy


def pin_what_if(inspector: Inspector, harness: str, pinned: Sequence[str], context_length: int,
                sessions: Sequence[Any] | None = None, config: ToolSearchConfig | None = None,
                tokenizer: str = C.DEFAULT_TOKENIZER, setting: str | None = None) -> PinWhatIf:
    """The cost of pinning ``pinned`` (full schemas on every request) against the round trips the
    pins save in the recorded ``sessions``.

    Claude Code: the ``ENABLE_TOOL_SEARCH`` rule (default ``unset``) with the pins kept out of
    deferral (``alwaysLoad``). Hermes: the engine's plan of the catalog with the pins made visible
    (the listing shrinks too); that is a proposal, labeled as not released.

    Raises:
        HarnessError: another harness, or a pin that is not a catalog tool.
        TokenizerError: an unknown tokenizer name.
    """
    known = {t.name for t in inspector.registration.tools}
    unknown = [p for p in pinned if p not in known]
    if unknown:
        raise HarnessError(f"pin: no tool named {quoted(unknown[0])} in the catalog")
    pins = tuple(sorted(set(pinned)))
    tools = {t.name: t for t in inspector.registration.tools}
    if harness == CLAUDE_CODE:
        before = claude_code(catalog_figures(inspector.planner, tokenizer=tokenizer), context_length, setting or "unset")
        after = claude_code(catalog_figures(inspector.planner, tokenizer=tokenizer, pinned=pins), context_length,
                            setting or "unset")
        schema = {p: tools_array_tokens([claude_definition(tools[p])], tokenizer) for p in pins}
        released, notes = True, ("alwaysLoad: true on a server pins all its tools; _meta[\"anthropic/alwaysLoad\"] "
                                 "pins one tool",)
    elif harness == HERMES:
        before = hermes(inspector, context_length, config, tokenizer, setting)
        after = hermes(pinned_inspector(inspector, pins), context_length, config, tokenizer, setting)
        schema = {p: tools_array_tokens([tools[p].definition], tokenizer) for p in pins}
        released, notes = False, (HERMES_PINS_NOTE,)
    else:
        raise HarnessError(f"pins: harness {quoted(harness)} has no pins here (claude-code or hermes)")
    uses = first_uses(sessions or (), pins)
    discovery = discovery_before_first_uses(sessions or (), pins)
    calls = Counter(e.name for s in (sessions or ()) for e in s.calls if e.name in set(pins))
    per_tool = tuple(PinnedTool(p, schema[p], calls.get(p, 0), uses[p], discovery[p]) for p in pins)
    saved = sum(discovery.values()) if sessions is not None else None
    if before.active is False:
        notes += ("tool search is off here without pins: pinning changes nothing",)
        saved = 0 if sessions is not None else None
    return PinWhatIf(harness, pins, before, after, after.upfront_tokens - before.upfront_tokens, saved,
                     per_tool, len(sessions or ()), released, notes)


def pin_hot_tools(sessions: Sequence[Any], inspector: Inspector, context_lengths: Sequence[int | None],
                  config: ToolSearchConfig | None = None, tokenizer: str = C.DEFAULT_TOKENIZER,
                  limit: int = 5) -> tuple[tuple[tuple[str, int], ...], list[PinWhatIf]]:
    """The "pin the hot tools" what-if for Hermes: the ``limit`` deferred tools the recorded
    ``sessions`` called most, sent with full schemas on every request (the proposed
    ``tools.tool_search.eager`` / per-server ``defer: false``, not in released Hermes), at each
    known context length of ``context_lengths`` (``None`` entries are skipped: a pin's cost needs
    a length).

    Only tools ``config`` defers count (none with ``enabled: off``): a tool already sent in full
    costs nothing to pin and saves no discovery.

    Returns:
        ``(hot, what_ifs)``: ``hot`` is ``((wire name, calls), ...)``, most calls first (ties by
        name); ``what_ifs`` one :func:`pin_what_if` per known length, in the order given (empty
        when no deferred tool was called).

    Raises:
        TokenizerError: an unknown tokenizer name (once some deferred tool was called: with
            nothing to pin, nothing is counted).
    """
    cfg = config or ToolSearchConfig()
    deferred = inspector.bridge(cfg).deferred_by_name if cfg.active else {}
    every = most_called_tools(sessions, inspector, limit=len(inspector.registration.tools))
    hot = tuple((name, calls) for name, calls in every if name in deferred)[:max(0, limit)]
    pins = [name for name, _ in hot]
    if not pins:
        return hot, []
    return hot, [pin_what_if(inspector, HERMES, pins, length, sessions, cfg, tokenizer)
                 for length in dict.fromkeys(context_lengths) if length]
