"""Every number the reference behavior fixes, in one place.

The engine, the CLI and the app's slider bounds all import from here. Section numbers refer to
``docs/reference.md`` (tool search §1-§13, registration §20-§30).
"""

from __future__ import annotations

# --- Configuration (docs/reference.md §1.1) -------------------------------------------------------------
ENABLED_DEFAULT = "auto"
LISTING_DEFAULT = "auto"
TRI_STATE_VALUES = ("auto", "on", "off")
THRESHOLD_PCT_DEFAULT = 5.0
THRESHOLD_PCT_MIN = 0.0
THRESHOLD_PCT_MAX = 100.0
SEARCH_DEFAULT_LIMIT_DEFAULT = 5
MAX_SEARCH_LIMIT_DEFAULT = 25
MAX_SEARCH_LIMIT_MIN = 1
MAX_SEARCH_LIMIT_MAX = 50
LISTING_MAX_TOKENS_DEFAULT = 4000
LISTING_MAX_TOKENS_MIN = 200
LISTING_MAX_TOKENS_MAX = 60000
#: A ``tools.tool_search`` block's unknown keys named one warning each, the rest counted in one
#: (as a source file's first 100 problems are named): a file of thousands filled every surface.
CONFIG_UNKNOWN_KEYS_NAMED = 20
#: ``recommend --headroom`` / ``check --headroom`` and the Tuning page's Headroom (%): the default
#: is the tight answer (no room kept), the same on every surface; the range is in %.
HEADROOM_PCT_DEFAULT = 0.0
HEADROOM_PCT_MAX = 1000.0
#: ``recommend --reserve`` / ``check --reserve`` and the Tuning page's Reserve (%): the share of every
#: context length kept free of the tools array for the system prompt, the conversation and the reply.
#: The default reserves nothing (a request fits when its tools array fits the context); the range is in %.
RESERVE_PCT_DEFAULT = 0.0
RESERVE_PCT_MAX = 90.0

#: Curated default ``defer`` set (docs/reference.md §1.7): the documented members plus the GUI helpers.
DEFAULT_DEFER: tuple[str, ...] = (
    "computer_use", "session_search", "image_generate", "todo_list", "process_manage",
    "cronjob_manage", "drive_preview", "gui_tour", "desktop_preview", "annotate_preview",
    "show_tip", "setup_mcp", "desktop_project", "close_terminal", "apply_layout",
    "read_terminal", "read_window_below", "focus_pane",
)

# --- Token estimation (docs/reference.md §3) ------------------------------------------------------------
CHARS_PER_TOKEN = 4.0
TOKENIZERS = ("chars4", "o200k_base", "cl100k_base")
DEFAULT_TOKENIZER = "chars4"

# --- Budget (docs/reference.md §4) ----------------------------------------------------------------------
UNKNOWN_CONTEXT_PCT_LEG = 10_000
#: Context-length presets offered by the app (tokens). ``None`` means unknown.
CONTEXT_PRESETS: tuple[int, ...] = (8_000, 32_000, 128_000, 200_000, 400_000, 1_000_000)
CONTEXT_LENGTH_MAX = 10_000_000
#: Largest context length (tokens) a command-line flag accepts; anything larger is refused.
CONTEXT_LENGTH_ARG_MAX = CONTEXT_LENGTH_MAX * 1000

# --- Listing (docs/reference.md §5) ---------------------------------------------------------------------
SHORT_DESCRIPTION_MAX_CHARS = 60
ELLIPSIS = "\u2026"
#: Longest value a config or catalog warning quotes whole; past it, the quote is cut with ``…``.
SHOWN_VALUE_MAX_CHARS = 80
#: Longest tool or server name a message or a lint line names whole (a plan note, a lint line, the
#: lint tables); past it, cut with ``…`` and its length (:func:`~.invisible.quoted_short`). Room for
#: every name a harness accepts (64) and most a server sends, not for a 100,000-character one.
SHOWN_NAME_MAX_CHARS = 200
#: Longest name from a link (``?catalog=``, ``?with=``, ``?sessions=``) that the app's notices quote
#: whole: every shipped sample's name fits. A longer one is cut with ``…`` and its length, so a crafted
#: link cannot put a paragraph of its own words (a fake alert, a URL to visit) into the app's notice.
LINK_NAME_MAX_CHARS = 40
#: The most names of one list from a link (unknown samples of ``?with=``, servers of ``?scope=`` not
#: in the catalog) that a notice quotes; the others are counted (``2,995 more``).
LINK_NAMES_MAX = 5
FORMS = ("full", "names", "mixed", "groups", "none")
SERVER_STATES = ("full", "names", "summary", "hidden", "visible")
UNREGISTERED_LABEL = "other"

# --- Bridge (docs/reference.md §6) ----------------------------------------------------------------------
TOOL_SEARCH = "tool_search"
TOOL_DESCRIBE = "tool_describe"
TOOL_CALL = "tool_call"
BRIDGE_NAMES = (TOOL_SEARCH, TOOL_DESCRIBE, TOOL_CALL)
MAX_QUERIES_PER_CALL = 7
MAX_DESCRIBE_NAMES_PER_CALL = 10

# --- Search (docs/reference.md §7) ----------------------------------------------------------------------
BM25_K1 = 1.5
BM25_B = 0.75
MIN_QUERY_TERM_COVERAGE = 0.5
MIN_ANSWERABLE_TERMS_FOR_COVERAGE = 4
STEM_CACHE_SIZE = 16_384
SEARCH_DESCRIPTION_MAX_CHARS = 500
REQUIRED_ENTRY_MAX_CHARS = 64
REQUIRED_MAX_ENTRIES = 32

# --- tool_call validation (docs/reference.md §9.3) ------------------------------------------------------
VALIDATION_MESSAGE_MAX_CHARS = 600
MULTI_CALL_ECHO_MAX_CHARS = 1500

# --- Registration (docs/reference.md §21) ---------------------------------------------------------------
MCP_TOOL_NAME_PREFIX = "mcp__"
MCP_NAME_SEPARATOR = "__"
MCP_TOOL_NAME_MAX_LENGTH = 64
MCP_TOOL_NAME_HASH_LENGTH = 8
MCP_TOOLSET_PREFIX = "mcp-"
SERVER_KINDS = ("mcp", "plugin", "core")
TOOL_NAMING = ("prefixed", "as-is")
UTILITY_TOOLS = ("list_resources", "read_resource", "list_prompts", "get_prompt")
PROVIDER_TOOL_NAME_PATTERN = r"^[a-zA-Z0-9_-]{1,64}$"

# --- Live MCP connections (docs/reference.md §20, §25.3, §26) ----------------------------------------------
#: ``tools/list`` pages followed per server before stopping (docs/reference.md §20 "pages followed").
MCP_LIST_PAGES_MAX = 50
#: Seconds for connect + handshake + listing of one server when its config sets no
#: ``connect_timeout`` (Hermes' own default is 60 s; an inspector should fail faster).
LIVE_CONNECT_TIMEOUT_DEFAULT = 30.0
#: Servers that connect and list at the same time; the others of one Connect wait (state
#: ``pending``) and start as those finish. A server's ``connect_timeout`` starts when it starts,
#: so a config with hundreds of servers neither starts them all at once nor times them out waiting.
LIVE_CONNECT_AT_ONCE = 8
#: Most tools ``toolsearch synth`` writes: at about 670 bytes a tool, a catalog file of this many
#: is just under the 64 MiB that toolsearch reads back (``readers.MAX_INPUT_BYTES``).
SYNTH_MAX_TOOLS = 100_000
#: Most bytes of one message from a live server: one line of a stdio server's output, or one
#: HTTP answer that is not an event stream (the MCP SDK limits an event to 1 MiB itself). A
#: ``tools/list`` page of 16 MiB holds some 20,000 tools; past it the connection is closed.
LIVE_MESSAGE_MAX_BYTES = 16 * 1024 * 1024
#: Most tools kept from one live server: as many as a catalog file under the 64 MiB reading limit
#: holds (:data:`SYNTH_MAX_TOOLS`); listing stops there (50 pages of 16 MiB would be a million tools).
LIVE_TOOLS_MAX = SYNTH_MAX_TOOLS
#: The most wildcard patterns (``*``, ``?``, ``[``) one scope list (servers, include, exclude) may
#: hold: each is tried on every tool name on every plan, and a link carries a scope, so a list of
#: thousands kept the page busy for a minute per slider move. Exact names have no limit.
SCOPE_MAX_PATTERNS = 256
#: Requests from one live server to toolsearch (ping, roots, sampling…) whose answers wait for the
#: server to read them, at most; past it toolsearch reads on only as the server reads the answers.
LIVE_SERVER_REQUESTS_MAX = 1000
#: Seconds toolsearch waits, with that many requests unanswered, for the server to read one of
#: the answers before it closes the connection (meanwhile it reads nothing more from the server).
LIVE_SERVER_REQUESTS_WAIT = 5.0
#: Seconds for one live tool call when the config sets no ``timeout``.
LIVE_CALL_TIMEOUT_DEFAULT = 60.0
#: Minutes a session held open for the app (Live servers page) may go unused before it is
#: closed and its server stopped.
LIVE_IDLE_MINUTES_DEFAULT = 10.0
#: How secret values (env values, header values) are shown.
SECRET_MASK = "\u2022\u2022\u2022\u2022"
#: Transports a live server can use.
MCP_TRANSPORTS = ("stdio", "http", "sse")

# --- Search-quality evaluation and catalog lint ------------------------
#: Tokenizers a search variant can use: ``ascii`` is the reference (docs/reference.md §7.1); ``unicode`` adds
#: CJK character bigrams and non-ASCII words (see :func:`toolsearch.engine.search.tokenize_unicode`).
SEARCH_TOKENIZERS = ("ascii", "unicode")
#: What a query term in no tool does in a variant (``SearchOptions.unknown_terms``); ``gate`` is
#: the reference (such a term can be the gate term and empty the result, docs/reference.md §7.4).
SEARCH_UNKNOWN_TERMS = ("gate", "ignore-non-ascii", "ignore")
#: English function words a variant with ``stop_words`` drops from queries: Lucene's classic
#: English stop set, plus the pronouns, auxiliaries, question words and politeness that agents put
#: into questions ("how do I ...", "can you please ..."), and the pieces the tokenizer cuts English
#: contractions into ("I'm" → i m, "haven't" → haven t, "we'll" → we ll). Action words (get, find,
#: show, list, create, call, copy, close...) are deliberately absent: in tool search they name the
#: action; so is "won" (a currency as well as "won't").
SEARCH_STOP_WORDS = frozenset("""
a an and are as at be but by for if in into is it no not of on or such that the their then there
these they this to was will with
i me my mine we us our ours you your yours he him his she her it its them who whom whose what
which how why when where do does did doing done can could should would shall may might must
am been being have has had please want need like some any all just also so than too very about
m s t d ll re ve don doesn didn isn aren wasn weren haven hasn hadn wouldn couldn shouldn mustn needn
""".split())
#: Score the early name-substring fallback gave each hit (docs/reference.md §12, PR #31163).
NAME_SUBSTRING_FALLBACK_SCORE = 0.1
#: The k of recall@k reported beside recall@1 and recall@limit.
EVAL_RECALL_K = 5
#: Rows of each per-server table of the HTML report (servers, degradation steps, the listing chart's
#: key) and labels of its collapse order: past it the report says how many are not shown and that
#: ``toolsearch plan --json`` lists them all (20,000 servers made a 50 MB report).
REPORT_SERVER_ROWS = 500
#: Lint: a description longer than this many characters (docs/reference.md §22 keeps it whole; it is sent in
#: every tool_describe and eager request).
LINT_DESCRIPTION_MAX_CHARS = 2048
#: Lint: a tool schema is "far above typical" when its chars4 tokens exceed both this factor
#: times the catalog median and the absolute floor below.
LINT_SCHEMA_MEDIAN_FACTOR = 5.0
LINT_SCHEMA_MIN_TOKENS = 1000
#: A tool definition over this many tokens (chars4) is flagged whatever the median (small catalogs).
LINT_SCHEMA_ABSOLUTE_TOKENS = 2000
#: Lint reachability probe: at most this many keywords from the first sentence, each at least
#: this many characters long, none of them in LINT_PROBE_STOP_WORDS.
LINT_PROBE_MAX_KEYWORDS = 4
LINT_PROBE_MIN_WORD_CHARS = 3
LINT_PROBE_STOP_WORDS = frozenset((
    "the", "and", "for", "with", "from", "into", "that", "this", "these", "those", "its", "their",
    "are", "was", "were", "been", "being", "has", "have", "had", "can", "may", "will", "not", "all",
    "any", "each", "one", "per", "via", "use", "used", "using", "you", "your", "our", "which", "when",
    "where", "what", "who", "how", "also", "only", "then", "than", "such", "other", "more", "most",
    "some", "about", "over", "under", "between", "within", "without", "given", "returns", "return",
))
#: Lint: tools per request above which these providers reject the whole request. The OpenAI
#: Chat Completions API documents "a max of 128 functions" for ``tools`` (Azure OpenAI serves the
#: same API); Anthropic documents no such count cap.
PROVIDER_MAX_TOOLS = 128
PROVIDER_MAX_TOOLS_PROVIDERS = ("OpenAI Chat Completions", "Azure OpenAI")
#: Lint severities, most severe first.
LINT_SEVERITIES = ("error", "warning", "info")

# --- Disclosure strategies (provider tool search, Agent Skills) -------------------
#: Anthropic tool search: its two variants, BM25 (a query) and regex (a pattern).
ANTHROPIC_SEARCH_VARIANTS: tuple[str, ...] = ("bm25", "regex")
#: Anthropic tool search, regex variant: longest ``pattern`` (characters, Python ``re`` syntax).
ANTHROPIC_REGEX_PATTERN_MAX_CHARS = 200
#: Anthropic tool search, BM25 variant: longest natural-language ``query`` (characters).
ANTHROPIC_BM25_QUERY_MAX_CHARS = 500
#: Anthropic tool search: tool references one search returns by default.
ANTHROPIC_SEARCH_RESULTS_DEFAULT = 5
#: Anthropic tool search: at least this many tools must stay non-deferred.
ANTHROPIC_MIN_NON_DEFERRED = 1
#: Anthropic tool search: at most this many deferred tools per request.
ANTHROPIC_MAX_DEFERRED_TOOLS = 10_000
#: OpenAI tool search: each namespace is recommended to hold fewer than this many functions.
OPENAI_NAMESPACE_MAX_FUNCTIONS = 10
#: OpenAI tool search: functions one search loads. OpenAI publishes no default; toolsearch
#: assumes the Anthropic figure so the two provider strategies compare like for like.
OPENAI_SEARCH_RESULTS_ASSUMED = 5
#: Agent Skills ``SKILL.md`` frontmatter: longest ``name`` and ``description`` (characters).
SKILL_NAME_MAX_CHARS = 64
SKILL_DESCRIPTION_MAX_CHARS = 1024

# --- Cache-stability diff and better collapse --------------------------
#: Characters of excerpt shown on each side of a first difference (toolsearch.analysis.cachediff).
CACHE_DIFF_CONTEXT_CHARS = 48

#: The characters a harness turns into ``_`` in a tool or server name (docs/reference.md §21.2): every
#: code point outside ``[A-Za-z0-9_]`` (a regular expression).
UNSAFE_NAME_CHARS = r"[^A-Za-z0-9_]"

#: Seconds past a live server's timeout that stopping it may take before the failure line says so
#: ("… (timeout; stopping the server took 2.04 s more)"), so its "failed after" figure adds up.
LIVE_STOP_NOTE_SECONDS = 0.1

#: A line of a GitHub Actions log that starts with this, after any leading whitespace (the runner
#: trims it: ``ActionCommand.TryParseV2``), is a runner command (``::error::…``, ``::stop-commands::…``).
RUNNER_COMMAND_PREFIX = "::"
#: The log commands a CI runner reads anywhere in a line, not only at its start: a GitHub Actions
#: runner's legacy form ``##[error]…`` (``ActionCommand.TryParse`` looks for it with ``IndexOf``)
#: and an Azure Pipelines agent's ``##vso[task.setvariable …]…`` (its ``Command.TryParse`` too,
#: case-sensitive). Each begins ``##`` and ends ``[``.
RUNNER_ANYWHERE_COMMANDS = ("##[", "##vso[")
