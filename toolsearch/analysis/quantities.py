"""The named quantities: every figure a reader can quote, computed once and named once.

Each function returns one figure from a :class:`~toolsearch.engine.plan.Plan` (or the planner)
and each :class:`Quantity` in :data:`QUANTITIES` gives its name, its JSON key and its
definition. Pages, CLI commands and the HTML report take their figures and labels from here, so a
figure has the same number and the same name on every surface (``tests/test_quantities.py``
checks it, ``docs/quantities.md`` is the glossary).

Tokens are in the plan's display tokenizer unless a docstring says otherwise; the listing and
the budget are in the planning tokenizer (the one that decides what fits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..engine.bridge import to_wire
from ..engine.plan import Plan, Planner
from ..engine.registration import Registration
from ..engine.tokens import get_tokenizer
from ..engine.wording import counted
from ..engine.invisible import quoted_short
from ..engine.search import gate_term_text  # noqa: F401  (re-exported: the gate term as shown)


@dataclass(frozen=True)
class Quantity:
    """One named figure.

    Attributes:
        key: its key: the ``plan --json`` key for plan-level figures (``eager_tokens``…), the
            per-server key for server figures, ``upfront_tokens`` of ``strategies --json``, the
            ``costs --json`` key for the costs figures (``description_tokens``, ``signature_tokens``,
            per server ``total_tokens``);
            ``saved_tokens``, ``tool_tokens`` and ``response_tokens`` exist only in this module
            (:func:`figures`, :func:`tool_schemas`, :func:`bridge_response`).
        name: the name every surface shows (capitalized as at the start of a label).
        unit: ``tokens`` or ``tokens (planning tokenizer)``.
        definition: one sentence: what it counts.
    """

    key: str
    name: str
    unit: str
    definition: str


ALL_SCHEMAS = Quantity(
    "eager_tokens", "All schemas up front", "tokens",
    "The tools array if nothing were deferred (tool search off): every registered tool's full definition, "
    "measured as one array (chars4: characters ÷ 4 rounded up once over the whole array; a BPE tokenizer: "
    "the whole array as one text).")
TOOLS_ARRAY = Quantity(
    "tools_tokens", "Tools array with tool search", "tokens",
    "The model-visible tools array at the current settings: visible tools plus the three bridge tools with "
    "the embedded listing, measured as one array the same way (in tier 0 it equals All schemas up front).")
DEFERRED_SCHEMAS = Quantity(
    "deferred_tokens", "Deferred schemas", "tokens",
    "The full definitions of the deferred tools only, the figure the harness reports as the cost tool search "
    "avoids (chars4: rounded up once over their sum; a BPE tokenizer: each definition counted alone, summed).")
LISTING = Quantity(
    "listing_tokens", "Listing", "tokens (planning tokenizer)",
    "The listing text embedded in the tool_search description (without the framing paragraph), counted "
    "with the planning tokenizer: the figure tested against the budget.")
BUDGET = Quantity(
    "budget", "Budget", "tokens (planning tokenizer)",
    "min(listing_max_tokens, int(context length × threshold_pct / 100)); 10,000 for the percentage leg when "
    "the context length is unknown.")
SAVED = Quantity(
    "saved_tokens", "Saved per request", "tokens",
    "All schemas up front minus Tools array with tool search (negative when tool search costs more).")
TOOL_SCHEMA = Quantity(
    "tool_tokens", "Tool schema (counted alone)", "tokens",
    "One tool's full definition as compact JSON, counted on its own (costs --json tools[].total_tokens, the "
    "column \"tool schema\" of costs and of the Costs page's costliest tools); chars4 rounds up per tool, so the sum over a catalog can be a few tokens above "
    "All schemas up front, which rounds once.")
TOOL_DESCRIPTION = Quantity(
    "description_tokens", "Description (counted alone)", "tokens",
    "One tool's description text counted on its own (costs --json tools[].description_tokens, the costs "
    "column \"description\").")
TOOL_SIGNATURE = Quantity(
    "signature_tokens", "Signature", "tokens",
    "One tool's definition without its description: Tool schema (counted alone) minus Description (counted "
    "alone), that is the tool's name, its parameters (input schema) and the JSON around them (costs --json "
    "tools[].signature_tokens, the costs column \"signature\"; never below 0).")
SERVER_TOOLS_TOTAL = Quantity(
    "total_tokens", "Server total (tools counted alone)", "tokens",
    "A server's tools' Tool schema (counted alone) figures added up (costs --json servers[].total_tokens, the "
    "costs per-server column \"total\"). chars4 rounds each tool up, so it can be up to one token per tool above "
    "Server schemas, which rounds once over the server; a BPE tokenizer gives both the same number.")
SERVER_SCHEMAS = Quantity(
    "schema_tokens", "Server schemas", "tokens",
    "A server's tools' full definitions, rounded once over the server (per server in plan --json).")
FULL_BLOCK = Quantity(
    "full_tokens", "Full block", "tokens",
    "A server's group in the listing with one line per tool (name and short description).")
NAMES_BLOCK = Quantity(
    "names_tokens", "Names block", "tokens",
    "A server's group in the listing with tool names only.")
SUMMARY_LINE = Quantity(
    "summary_tokens", "Summary line", "tokens",
    "A server's one summary line in the listing (its label and tool count).")
ALL_UP_FRONT_STRATEGY = Quantity(
    "upfront_tokens", "All up front (strategy)", "tokens",
    "The Strategies comparison's all-up-front prompt before the first turn (strategies --json): All schemas "
    "up front plus the skill listing when skills are loaded; equal to All schemas up front without skills.")
BRIDGE_RESPONSE = Quantity(
    "response_tokens", "Bridge response", "tokens",
    "A tool_search, tool_describe or tool_call response as the model reads it: the exact JSON the bridge "
    "returns (to_wire), counted as one text with the display tokenizer.")

#: Every named quantity, in glossary order.
QUANTITIES: tuple[Quantity, ...] = (ALL_SCHEMAS, TOOLS_ARRAY, DEFERRED_SCHEMAS, LISTING, BUDGET, SAVED, TOOL_SCHEMA,
                                    TOOL_DESCRIPTION, TOOL_SIGNATURE, SERVER_SCHEMAS, SERVER_TOOLS_TOTAL, FULL_BLOCK,
                                    NAMES_BLOCK, SUMMARY_LINE, ALL_UP_FRONT_STRATEGY, BRIDGE_RESPONSE)

#: The heading of each per-server token figure (the ``plan --json`` key of :data:`SERVER_SCHEMAS`,
#: :data:`FULL_BLOCK`, :data:`NAMES_BLOCK`, :data:`SUMMARY_LINE`) in a table with one row per server:
#: the app's server tables, the HTML report's and ``plan``'s text table all head them so.
SERVER_TOKEN_COLUMNS: Mapping[str, str] = {
    SERVER_SCHEMAS.key: "schemas (tokens)", FULL_BLOCK.key: "full block (tokens)",
    NAMES_BLOCK.key: "names block (tokens)", SUMMARY_LINE.key: "summary line (tokens)",
}

#: The heading of :data:`TOOL_SCHEMA` in a table with one row per tool (``costs``' tool table; the Costs
#: page's costliest tools add the unit: ``tool schema (tokens, chars4)``). Not "schema" alone: a
#: per-server table's ``schemas (tokens)`` is :data:`SERVER_SCHEMAS`, rounded once per server.
TOOL_SCHEMA_COLUMN = "tool schema"

#: Each tier as the app's tier bar and the HTML report's badge name it (docs/reference.md §4-§5): one
#: label on every surface, in plain words ("bare bridge" was the code's word for tier 2 with no listing).
TIER_LABELS: Mapping[int, str] = {
    0: "Tier 0 · no bridge", 1: "Tier 1 · listing embedded", 2: "Tier 2 · server summaries or no listing",
}

#: The word each listing form and server state is shown with. The listing form ``groups`` (every
#: server as its summary line) is shown as ``summary``, the word of the per-server state, so a
#: reader meets one word for one state; JSON keeps the value ``groups``.
STATE_WORDS: Mapping[str, str] = {
    "full": "full", "names": "names", "mixed": "mixed", "groups": "summary", "summary": "summary",
    "hidden": "hidden", "none": "none", "visible": "visible",
}


def context_words(n: int | None) -> str:
    """A context length as every surface writes it in sentences, headings and per-length rows: ``32000`` → ``32K``, ``1000000`` → ``1M``,
    ``10000000000`` → ``10,000M``, ``12345`` → ``12,345``, ``None`` → ``unknown``."""
    if not n:
        return "unknown"
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000:,}M"
    if n % 1000 == 0:
        return f"{n // 1000:,}K"
    return f"{n:,}"


def length_in_words(n: int) -> str:
    """A known context length in a sentence that names its size: :func:`context_words` where it is
    compact (``32000`` → ``32K``, ``1000000`` → ``1M``), else the count of tokens (``1 token``,
    ``12,345 tokens``), so a length is never written in full where the rest of the sentence and
    the product write ``32K``."""
    short = context_words(n)
    return short if short[-1] in "KM" else counted(n, "token")


def length_label(n: int | None) -> str:
    """A context length where it labels something (a row of a per-length table, a heading, an
    option, a caption): :func:`length_in_words` (``200K``, ``1M``, ``12,345 tokens``), or ``unknown``
    (``None``). ``recommend``'s table and the Tuning page's write their rows' lengths with it."""
    return length_in_words(n) if n else "unknown"


def length_arg(n: int | None) -> str:
    """A context length as ``--context-lengths`` takes it: ``32k``, ``1m``, ``12345``, ``unknown``
    (``None``): how a command the product prints for the user to run writes it."""
    if n is None:
        return "unknown"
    return f"{n // 1_000_000}m" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


def form_word(form: str) -> str:
    """The word shown for a listing form or a server state (``groups`` → ``summary``; others unchanged)."""
    return STATE_WORDS.get(form, form)


def mixed_label_words(short_label: str, servers_named: int, servers_total: int) -> str:
    """The key to a mixed listing's short label (``mixed 8/9``), as the Tuning page's grids and
    ``sweep``'s table explain it: ``“mixed 8/9”: 8 of 9 servers named, the rest as summary lines``."""
    return f"“{short_label}”: {servers_named:,} of {servers_total:,} servers named, the rest as summary lines"


# --- one function per quantity ------------------------------------------------------------------

def all_schemas_up_front(plan: Plan) -> int:
    """:data:`ALL_SCHEMAS` in tokens (the plan's display tokenizer): the tools array with nothing deferred."""
    return plan.eager_tokens


def tools_array(plan: Plan) -> int:
    """:data:`TOOLS_ARRAY` in tokens (display tokenizer): the model-visible tools array at these settings."""
    return plan.tools_tokens


def deferred_schemas(plan: Plan) -> int:
    """:data:`DEFERRED_SCHEMAS` in tokens (display tokenizer)."""
    return plan.deferred_tokens


def deferred_tools(plan: Plan) -> int:
    """How many tools the model reaches only through the bridge tools at these settings: the plan's
    deferred tools, or 0 when tool search is not active (tier 0 sends every schema; the plan's
    ``deferred_count`` still says how many it would defer)."""
    return plan.deferred_count if plan.activated else 0


def listing(plan: Plan) -> int:
    """:data:`LISTING` in tokens (planning tokenizer); 0 without a listing."""
    return plan.listing_tokens


def budget(plan: Plan) -> int:
    """:data:`BUDGET` in tokens (planning tokenizer)."""
    return plan.budget


def saved_per_request(plan: Plan) -> int:
    """:data:`SAVED` in tokens (display tokenizer); negative when tool search adds tokens."""
    return plan.eager_tokens - plan.tools_tokens


def tool_search_description_tokens(text: str | None, tokenizer: str) -> int:
    """The ``tool_search`` description text alone (framing paragraph and listing), counted raw with
    ``tokenizer`` (the planning tokenizer: the one the Listing figure uses); 0 without a description
    (tier 0 has no tool_search tool). Inside the tools array the text is JSON-escaped, so it counts a
    little more there. The Model view page and the collapse what-if (``toolsearch collapse``, the
    Compare & collapse page) show this figure.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    return get_tokenizer(tokenizer).count(text) if text else 0


def saved_share_words(plan: Plan) -> str | None:
    """:data:`SAVED` as a share of All schemas up front, in words (``97% of all schemas up front``),
    as the Overview page and the report show it; ``None`` when nothing is sent up front or tool
    search costs more (a negative saving is said in tokens). Whole percent, except that a share short
    of 100 is never shown as 100 (99.88 → 99.8)."""
    eager, saved = all_schemas_up_front(plan), saved_per_request(plan)
    if not eager or saved < 0:
        return None
    share = 100 * saved / eager
    shown = f"{int(share * 10) / 10:.1f}" if saved < eager and round(share) >= 100 else f"{share:.0f}"
    return f"{shown}% of {ALL_SCHEMAS.name.lower()}"


def costs_more_words(plan: Plan) -> str | None:
    """When tool search makes the request larger than sending every schema (a negative
    :data:`SAVED`), the verdict in words, as the Overview page, the report and ``plan`` say it: ``"tool search
    adds 710 tokens per request here; consider enabled: off"``; ``None`` otherwise (or when tool
    search is not active)."""
    extra = -saved_per_request(plan)
    if not plan.activated or extra <= 0:
        return None
    return f"tool search adds {extra:,} tokens per request here; consider enabled: off"


def tools_array_too_large(tools_tokens: int, context_length: int | None) -> bool:
    """Whether a tools array of ``tools_tokens`` tokens is larger than ``context_length`` (tokens), so no
    request fits the model; ``False`` when the context length is unknown. The one test behind
    :func:`context_overflow_words`, :func:`request_cost_words`, ``recommend``'s lengths where no setting
    fits (:func:`toolsearch.analysis.recommend.unfit_lengths`) and ``check``'s ``no request fits``."""
    return bool(context_length) and (context_length or 0) > 0 and tools_tokens > (context_length or 0)


def tools_array_words(tools_tokens: int, tokenizer: str, context_length: int | None) -> str:
    """A tools array larger than the context length, in words: ``"the tools array alone (699 tokens,
    chars4) is larger than the context length (500 tokens)"`` (tokens in ``tokenizer``)."""
    return (f"the tools array alone ({tools_tokens:,} tokens, {tokenizer}) is larger than "
            f"the context length ({length_label(context_length)})")


def request_overflow_words(tools_tokens: int, tokenizer: str, context_length: int | None,
                           reserve_pct: float = 0.0, reserve_tokens: int = 0) -> str:
    """A tools array that the listing makes larger than the context length, in words, as ``check`` fails
    a length with it: ``"the tools array with this listing (32,708 tokens, chars4) is larger than the
    context length (32K): no request with these settings fits the model"`` (tokens in ``tokenizer``).
    With a reserve (``reserve_pct`` % of the length, ``reserve_tokens`` tokens) that the array leaves
    less than: ``"the tools array with this listing (20,120 tokens, chars4) leaves less than the 50%
    reserve (16,000 tokens) of the context length (32K): no request with these settings keeps it"``."""
    if reserve_tokens and tools_tokens <= (context_length or 0):
        return (f"the tools array with this listing ({tools_tokens:,} tokens, {tokenizer}) leaves less than the "
                f"{reserve_pct:g}% reserve ({reserve_tokens:,} tokens) of the context length "
                f"({length_label(context_length)}): no request with these settings keeps it")
    return (f"the tools array with this listing ({tools_tokens:,} tokens, {tokenizer}) is larger than the context "
            f"length ({length_label(context_length)}): no request with these settings fits the model")


def context_overflow_words(plan: Plan, context_length: int | None) -> str | None:
    """When a request does not fit ``context_length`` (tokens), in words, as the Overview and What the
    model sees pages warn and ``plan`` and ``recommend`` print it: the tools array alone is larger
    (``"the tools array alone (699 tokens, chars4) is larger than the context length (500 tokens): no
    request with these settings fits the model"``), or only sending every schema up front would be
    (``"sending every schema up front (… tokens, chars4) would not fit the context length (…); with tool
    search the request fits"``). ``None`` when both fit, or the context length is unknown. Tokens in
    ``plan``'s display tokenizer."""
    if not context_length or context_length <= 0:
        return None
    if tools_array_too_large(plan.tools_tokens, context_length):
        return (f"{tools_array_words(plan.tools_tokens, plan.display_tokenizer, context_length)}: no request with "
                "these settings fits the model")
    if plan.eager_tokens > context_length:
        return (f"sending every schema up front ({plan.eager_tokens:,} tokens, {plan.display_tokenizer}) would "
                f"not fit the context length ({length_label(context_length)}); with tool search the request fits")
    return None


def request_cost_words(plan: Plan, context_length: int | None) -> list[str]:
    """What a request costs where that matters more than the listing, in the words ``plan`` prints
    them: :func:`context_overflow_words` when the tools array alone is larger than the context length
    (not when only sending every schema up front would be: tool search answers that one), then
    :func:`costs_more_words`. ``[]`` in the usual case. ``plan --json``'s ``request_costs`` and each
    length of ``recommend``'s (:func:`toolsearch.analysis.recommend.request_cost_lines`)."""
    too_large = tools_array_too_large(plan.tools_tokens, context_length)
    found = (context_overflow_words(plan, context_length) if too_large else None, costs_more_words(plan))
    return [words for words in found if words]


def context_share(tokens: int, context_length: int | None) -> str | None:
    """``tokens`` as a share of the context length, as every surface prints it (the Overview, the
    Scopes page's ``% of context`` column, the HTML report's summary, ``recommend``'s large-share
    lines): one decimal with thousands separators and a percent sign (``2.5%``, ``8,299.8%``); a
    share above 0 that would round to ``0.0%`` is ``<0.1%`` (a tools array is never "0% of the
    context"). ``None`` when the context length is unknown (nothing to divide by)."""
    if not context_length:
        return None
    share = 100 * tokens / context_length
    if 0 < share < 0.05:
        return "<0.1%"
    return f"{share:,.1f}%"


def bridge_response(response: Mapping[str, Any], tokenizer: str) -> int:
    """:data:`BRIDGE_RESPONSE` in tokens: ``response`` (a ``tool_search``, ``tool_describe`` or
    ``tool_call`` response object) serialized exactly as the bridge sends it
    (:func:`toolsearch.engine.bridge.to_wire`) and counted as one text with ``tokenizer`` (the
    display tokenizer: the Search page's, the Strategies page's, ``search --tokenizer``).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    return get_tokenizer(tokenizer).count(to_wire(response))


def bridge_response_words(response: Mapping[str, Any], tokenizer: str) -> str:
    """:data:`BRIDGE_RESPONSE` in words, as the Search page and ``toolsearch search`` print it:
    ``1,234 characters · 309 tokens (chars4) in the model's context`` (characters of the wire JSON).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    return (f"{len(to_wire(response)):,} characters · {bridge_response(response, tokenizer):,} tokens "
            f"({tokenizer}) in the model's context")


def tool_schemas(planner: Planner, tokenizer: str) -> dict[str, int]:
    """:data:`TOOL_SCHEMA` per tool, ``{wire name: tokens}`` (each definition counted alone).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    return planner.tool_tokens(tokenizer)


def tool_schemas_sum(planner: Planner, tokenizer: str) -> int:
    """The per-tool figures of :func:`tool_schemas` added up (tokens); at least All schemas up front
    for chars4 (each tool rounds up on its own).

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    return sum(planner.tool_tokens(tokenizer).values())


def server_blocks(plan: Plan) -> dict[str, dict[str, int]]:
    """Per server: ``{"schema_tokens", "full_tokens", "names_tokens", "summary_tokens"}`` in tokens
    (display tokenizer; the blocks are 0 for a server with no deferred tools)."""
    return {s.name: {"schema_tokens": s.schema_tokens, "full_tokens": s.full_tokens,
                     "names_tokens": s.names_tokens, "summary_tokens": s.summary_tokens} for s in plan.servers}


def helper_tools(registration: Registration) -> dict[str, int]:
    """Per server, how many of its registered tools are the resource and prompt helper tools the
    harness adds for a server that announces those capabilities (``list_resources``,
    ``read_resource``, ``list_prompts``, ``get_prompt``; docs/reference.md §24), ``{server: count}``
    in server-name order, servers without any left out. Registered tool counts include them; a
    server's own ``tools/list`` does not."""
    counts: dict[str, int] = {}
    for tool in registration.tools:
        if tool.utility:
            counts[tool.server] = counts.get(tool.server, 0) + 1
    return dict(sorted(counts.items()))


def helper_tools_words(registration: Registration) -> str | None:
    """One sentence saying how many registered tools are :func:`helper_tools` and whose
    (``6 of the 17 registered tools are …(2 for memory, 4 for time)…``), or ``None`` when there are none.
    Server names are catalog text: the caller shows the sentence literally."""
    counts = helper_tools(registration)
    if not counts:
        return None
    added, total = sum(counts.values()), len(registration.tools)
    per_server = ", ".join(f"{n:,} for {name}" for name, n in counts.items())  # "notion 2" read as a name
    return (f"{added:,} of the {total:,} registered tools are resource and prompt tools the harness adds for "
            f"servers that announce those capabilities ({per_server}; docs/reference.md §24): a server's own "
            "tools/list does not count them")


def figures(plan: Plan) -> dict[str, int]:
    """The plan-level quantities by JSON key: ``eager_tokens``, ``tools_tokens``, ``deferred_tokens``,
    ``listing_tokens``, ``budget``, ``saved_tokens`` (all tokens)."""
    return {
        ALL_SCHEMAS.key: all_schemas_up_front(plan), TOOLS_ARRAY.key: tools_array(plan),
        DEFERRED_SCHEMAS.key: deferred_schemas(plan), LISTING.key: listing(plan), BUDGET.key: budget(plan),
        SAVED.key: saved_per_request(plan),
    }


def servers_without_tools(inspector: Any) -> tuple[str, ...]:
    """The servers of ``inspector``'s whole catalog (its session scope aside) that register no tools (a
    snapshot whose ``tools/list`` came back empty, ``tools: []``), in catalog order: such a server takes
    no room in the listing and no goal counts it, so a figure or a gate says nothing about it unless
    told. A server whose tools the config's include/exclude leaves out is not one (its list is not
    empty), nor one whose tool entries the reader skipped (``Server.skipped``: a catalog error says
    what is missing there)."""
    whole = inspector.scoped(None)
    with_tools = {tool.server for tool in whole.registration.tools}  # helper tools take room too
    return tuple(server.name for server in whole.catalog.servers
                 if not server.tools and not server.skipped and server.name not in with_tools)


#: What a catalog with no tools at all does to the figures, as ``plan`` warns and the app's pages
#: say it (the commands that would judge it, ``check``, ``lint``, ``recommend``, refuse it instead).
EMPTY_CATALOG_FIGURES = "every figure is for an empty catalog (tier 0: nothing to defer or list)"


def empty_catalog_words(catalog: Any, so: str = EMPTY_CATALOG_FIGURES) -> str | None:
    """One line for a catalog with no tools at all (``servers: []``, every server's ``tools`` empty:
    an export step that wrote nothing), as every surface says it: ``FILES: no tools, so SO; give the
    catalog the harness serves``. ``so``: what it means for this surface (the figures, by default;
    ``"every goal would hold with nothing judged"`` for ``check``'s refusal). ``None`` when
    ``catalog`` (a :class:`~toolsearch.engine.catalog.Catalog`) has a tool."""
    if catalog.tool_count:
        return None
    files = ", ".join(catalog.sources) or "the catalog"
    return f"{files}: no tools, so {so}; give the catalog the harness serves"


def inspector_empty_words(inspector: Any, so: str = EMPTY_CATALOG_FIGURES) -> str | None:
    """:func:`empty_catalog_words` for an inspector's catalog; when a session scope leaves none of a
    catalog that has tools, that is what it says instead: ``scope 'support' reaches no tool of FILES, so
    SO; give the scope servers the catalog has`` (the file is not what is empty). ``None`` when the
    (scoped) catalog has a tool."""
    scope = getattr(inspector, "scope", None)
    if scope is not None and not inspector.catalog.tool_count and inspector.scoped(None).catalog.tool_count:
        files = ", ".join(inspector.catalog.sources) or "the catalog"
        return f"scope {quoted_short(scope.name)} reaches no tool of {files}, so {so}; give the scope servers the catalog has"
    return empty_catalog_words(inspector.catalog, so)
