"""Strategies: six disclosure strategies side by side for the same catalog, skills and task.

Every number comes from :mod:`toolsearch.analysis.strategies`; this page only collects inputs and shows
results. Catalog and skill text is untrusted: it reaches the page only through dataframes,
``st.text``/``st.code`` and escaped plotly hovers, never as Markdown or HTML.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from toolsearch.analysis import charts, palette
from toolsearch.ui import common, signals
from toolsearch.ui.picker import pick_many
from toolsearch.ui.tables import literal_table
from toolsearch.ui.styles import LIGHT_FILL_TEXT
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.errors import ToolsearchError
from toolsearch.engine.invisible import yaml_kind
from toolsearch.engine.readers import decode_bytes, load_yaml
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.skills import SkillSet, load_skills, skills_from_texts
from toolsearch.analysis.strategies import (harness_switches, switch_tokenizer, read_before_call_words, TOOLS_SHOWN_COLUMN, CALLABLE_COLUMN, EVENT_KINDS, SEARCH_VARIANTS, SKILL_LINKED, STRATEGIES, STRATEGY_LABELS,
                                   STRATEGY_SUMMARIES, ALL_UPFRONT, TIERED, Event, Namespace, StrategyModel,
                                   StrategySettings, Task, dump_events, events_from_text, load_events,
                                   parse_events, task_from_events, task_summary as task_words)
from toolsearch.analysis.wording import counted
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis.review import (SAMPLE_EVENTS_CATALOG,  # the catalog the sample events are written for
                                       STRATEGIES_START_WORDS, strategies_command)
from toolsearch.analysis.samples import samples_dir
from toolsearch.ui.sources import TEXT_UPLOAD_MB

SAMPLE_SKILLS = samples_dir("sample_skills")
SEED = samples_dir("sample_catalogs") / "seed-worked-example"
SIDEBAR, WORKED = "Sidebar catalog", "Worked example"
SKILLS_SAMPLE, SKILLS_UPLOAD, SKILLS_NONE = "Sample skills (sample_skills/)", "Upload SKILL.md files or a YAML list", "No skills"
NAMESPACE_EXAMPLE = """\
# Optional. Each namespace shows only its name and description until searched.
- name: tracking
  description: Issue tracking across GitHub and Linear.
  tools: [mcp__github__create_issue, mcp__linear__create_issue]
"""


def _mtime_key(folder: Path) -> str:
    files = sorted(folder.rglob("*")) if folder.exists() else []
    return hashlib.sha256("".join(f"{p}:{p.stat().st_mtime_ns}" for p in files if p.is_file()).encode()).hexdigest()[:16]


@st.cache_resource(show_spinner="Loading the worked example…", max_entries=2)
def _seed(key: str) -> tuple[Inspector, SkillSet, tuple[Event, ...]]:
    return (Inspector(load_source(SEED / "catalog.yaml", "sample_catalogs/seed-worked-example/catalog.yaml")),
            load_skills(SEED / "skills"),
            load_events(SEED / "task.yaml"))


@st.cache_resource(show_spinner="Loading skills…", max_entries=4)
def _folder_skills(path: str, key: str) -> SkillSet:
    return load_skills(path)


@st.cache_resource(show_spinner="Computing the strategies…", max_entries=16)
def _model(key: str, _inspector: Inspector, _skills: SkillSet, _settings: StrategySettings) -> StrategyModel:
    return StrategyModel(_inspector, _skills, _settings)


@st.cache_resource(show_spinner="Running the task and the events…", max_entries=32)
def _run(key: str, _model: StrategyModel, _task: Task, _events: tuple[Event, ...]):
    return _model.results(_task), (_model.timeline(_events) if _events else ())


def _plain(text: str) -> str:
    """Text for st.error/st.info, which render Markdown: every Markdown character backslash-escaped
    and URLs kept from becoming links (:func:`toolsearch.ui.text.md_escape`), so file names, skill
    names and other untrusted text show literally."""
    return common.md_escape(text, keep_newlines=True)


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _strategy_style(value: Any) -> str:
    """CSS for a strategy-name cell: the strategy's color (the same in every table and chart)."""
    colors = {STRATEGY_LABELS[s]: charts.STRATEGY_COLORS[s] for s in STRATEGIES}
    return palette.cell_style(colors.get(value))


def _events_rows(events: tuple[Event, ...]) -> pd.DataFrame:
    rows = [{"event": e.kind, "argument": "" if e.arg is None else (" ".join(e.arg) if isinstance(e.arg, tuple) else e.arg)}
            for e in events]
    return pd.DataFrame(rows, columns=["event", "argument"])


def _events_from_rows(df: pd.DataFrame) -> tuple[Event, ...]:
    """Editor rows → events (a ``describe`` argument may list several names, space-separated)."""
    data = []
    for _, row in df.iterrows():
        kind = row.get("event")
        if not isinstance(kind, str) or not kind.strip():
            continue
        arg = row.get("argument")
        arg = arg.strip() if isinstance(arg, str) else ""
        if kind == "compaction":
            data.append(kind)
        elif kind == "describe":
            data.append({kind: arg.replace(",", " ").split() or ""})
        else:
            data.append({kind: arg})
    return parse_events(data, "events table")


v = common.view()
st.title("Strategies")
st.caption("When does the model get a tool's schema? Six disclosure strategies for the same catalog, skills and "
           "task: what the model sees before the first turn, what a task costs, the round trips before each "
           "tool's first call, and whether the prompt cache survives. See docs/strategies.md for what each trades.")

source = st.radio("Catalog and skills", [SIDEBAR, WORKED], horizontal=True, key="strat_source",
                  help="The sidebar's catalog with skills of your choice, or the worked example: 200 tools "
                       "at 500 tokens, 50 skills with 100-token listing lines and 2,000-token bodies "
                       "(sample_catalogs/seed-worked-example/).")
errors: list[str] = []
if source == WORKED:
    try:
        inspector, skills, default_events = _seed(_mtime_key(SEED))
    except ToolsearchError as exc:
        st.error(_plain(f"The worked example could not be loaded: {exc}"), icon=":material/error:")
        st.stop()
    source_label = "worked example"
    st.caption("Catalog, skills and events from sample_catalogs/seed-worked-example/. The sidebar's catalog is not "
               "used here; its tokenizers, context length and budget are.")
    if v.display_tokenizer != "chars4":
        st.info(f"The worked example is sized for the chars4 estimate; the sidebar's display tokenizer is "
                f"{v.display_tokenizer}, so its numbers differ from 105,000 / 109,000 / 11,000.")
else:
    if not common.require_catalog(v):
        st.stop()
    inspector = v.inspector
    source_label = v.source_label
    mode = st.radio("Skills", [SKILLS_SAMPLE, SKILLS_UPLOAD, SKILLS_NONE], horizontal=True, key="strat_skills_mode",
                    help="Skills are listed by name and description up front; their bodies are read on demand. "
                         "metadata.include_tools links tools to a skill (skill-linked strategy).")
    skills = SkillSet()
    default_events: tuple[Event, ...] = ()
    if mode == SKILLS_SAMPLE:
        # the command line starts elsewhere (no skills, no task): say so, and the command that gives
        # these figures, with the sidebar's context length and tokenizer
        unlike = ([] if v.config == parse_config({}) else
                  ["the sidebar's tools.tool_search settings go in a --config file"]) + \
                 ([] if v.display_tokenizer == v.tokenizer else
                  [f"the command counts and plans with one tokenizer, here {v.tokenizer} plans and "
                   f"{v.display_tokenizer} counts"])
        command = strategies_command(common.shipped_sample_files(), st.session_state.get("catalog"),
                                     v.context_length, v.tokenizer)
        # The sentence starts with the command's name: kept as typed, in code, not capitalized.
        name = "toolsearch strategies"
        st.caption(f"`{name}`" + common.md_escape(STRATEGIES_START_WORDS.removeprefix(name) + ". Here: ")
                   + f"`{command}`" + (common.md_escape(" (" + "; ".join(unlike) + ").") if unlike else ""))
        try:
            skills = _folder_skills(str(SAMPLE_SKILLS), _mtime_key(SAMPLE_SKILLS))
        except ToolsearchError as exc:
            errors.append(str(exc))
        if st.session_state.get("catalog") == SAMPLE_EVENTS_CATALOG and (SAMPLE_SKILLS / "events.yaml").exists():
            try:
                default_events = load_events(SAMPLE_SKILLS / "events.yaml")
            except ToolsearchError as exc:
                errors.append(str(exc))
    elif mode == SKILLS_UPLOAD:
        uploads = st.file_uploader("SKILL.md files or a YAML list of skills", max_upload_size=TEXT_UPLOAD_MB, type=["md", "yaml", "yml", "json"],
                                   accept_multiple_files=True, key="strat_skill_uploads",
                                   help="Several SKILL.md files (one per skill), or one YAML list "
                                        "[{name, description, include_tools, allowed-tools, body}].")
        texts = []
        for upload in uploads or []:
            try:
                texts.append((upload.name, decode_bytes(upload.getvalue(), upload.name)))
            except ToolsearchError as exc:
                errors.append(str(exc))
        if texts:
            try:
                skills = skills_from_texts(texts)
            except ToolsearchError as exc:
                errors.append(str(exc))
for error in errors:
    st.error(_plain(error), icon=":material/error:")

tool_names = [t.name for t in inspector.registration.tools if t.name not in C.BRIDGE_NAMES]
skill_names = list(skills.names)
server_names = [s.name for s in inspector.catalog.servers]

# --- events and task ----------------------------------------------------------------------------
st.subheader("Task and events")
# Tracked, so that the events as YAML (syntax-highlighted, a costly first draw in the browser) are
# drawn only while it is open; its widgets are drawn either way, so edits are kept when it closes.
events_box = st.expander("Events for the timeline: edit, add or remove rows, or load a YAML file",
                         key="strat_events_open", on_change="rerun")
with events_box:
    st.caption("The timeline runs these events in order under every strategy. Events: "
               + ", ".join(EVENT_KINDS) + ". A describe argument may list several tool names; a server named by "
               "add_server starts disconnected. By default the task below is the reads and calls of these events.")
    events_upload = st.file_uploader("Load events (YAML list)", max_upload_size=TEXT_UPLOAD_MB, type=["yaml", "yml"], key="strat_events_upload",
                                     help="e.g. - {read_skill: pdf}, - {call: mcp__github__create_issue}, "
                                          "- {search: \"github issue\"}, - compaction, - {add_server: sentry}")
    if events_upload is not None:
        skipped: list[str] = []  # a bad event is skipped with its place; the others are used
        try:
            default_events = events_from_text(decode_bytes(events_upload.getvalue(), events_upload.name),
                                              events_upload.name, skipped)
        except ToolsearchError as exc:
            st.error(_plain(f"Events file not used: {exc}"), icon=":material/error:")
        for warning in skipped:
            st.warning(_plain(warning), icon=":material/warning:")
    editor_key = "strat_events_" + _digest(source, source_label, skill_names, default_events)
    edited = st.data_editor(
        _events_rows(default_events), key=editor_key, num_rows="dynamic", hide_index=True, width="stretch",
        column_config={
            "event": st.column_config.SelectboxColumn("event", options=list(EVENT_KINDS), required=True),
            "argument": st.column_config.TextColumn(
                "argument", help="query or regex pattern (search), tool wire names (describe, call), skill "
                                 "(read_skill), server (add_server, remove_server); empty for compaction"),
        })
    events: tuple[Event, ...] = ()
    events_ok = True
    try:
        events = _events_from_rows(edited)
    except ToolsearchError as exc:
        st.error(_plain(str(exc)), icon=":material/error:")
        events_ok = False
    if events_box.open:  # drawn only when opened
        st.caption("The same events as YAML, for toolsearch strategies --events FILE:")
        st.code(common.visible(dump_events(events)) or "# no events", language="yaml")

derived = task_from_events(events)
task_key = _digest(editor_key, events)
# One under the other, full width: tool wire names are long, and a chip must show its whole name.
read = st.multiselect("Skills the task reads", skill_names,
                      default=[s for s in derived.skills_read if s in skill_names], key=f"strat_read_{task_key}", wrap=True,
                      format_func=common.visible)
# Above a few thousand tools the tool pickers filter on the server and send only the matching names.
used = pick_many("Tools the task uses", tool_names, key=f"strat_use_{task_key}", owner=inspector.planner,
                 default=[t for t in derived.tools_used if t in tool_names])
task = Task(tuple(read), tuple(used))

# --- settings --------------------------------------------------------------------------------------
with st.expander("Strategy settings"):
    st.caption(f"Counts use the sidebar's display tokenizer ({v.display_tokenizer}); the tiered strategy uses the "
               "sidebar's context length, budget and planning tokenizer.")
    # Checkbox and toggle labels are one line that is cut when too long for its column: they get
    # the full width, the short inputs share rows.
    c1, _ = st.columns(2)
    override = st.checkbox("Count every tool definition as a fixed size", key="strat_override",
                           help="A uniform per-tool size, e.g. 500 tokens for the worked example.")
    tool_tokens = (c1.number_input("Tokens per tool definition", min_value=0, max_value=1_000_000, value=500, step=50,
                                   key="strat_tool_tokens") if override else None)
    st.markdown("**Provider search (Anthropic, OpenAI, combined)**")
    by_hand = st.checkbox("Choose the non-deferred tools", key="strat_nd_by_hand",
                          help="Default: the tools the reference keeps visible (core tools); combined also defers "
                               "skill-linked ones. At least one tool always stays non-deferred.")
    non_deferred = None
    if by_hand:
        reference = sorted(StrategyModel(inspector, None, StrategySettings(tokenizer=v.display_tokenizer,
                                                                           config=v.config)).reference_visible)
        non_deferred = tuple(pick_many("Non-deferred tools", tool_names, key="strat_nd", owner=inspector.planner,
                                       default=reference))
    p2, p3 = st.columns(2)
    variant = p2.radio("Anthropic search tool", list(SEARCH_VARIANTS), horizontal=True, key="strat_variant",
                       help=f"bm25: natural-language query up to {C.ANTHROPIC_BM25_QUERY_MAX_CHARS} characters; "
                            f"regex: Python re pattern up to {C.ANTHROPIC_REGEX_PATTERN_MAX_CHARS} characters.")
    results_per_search = p3.number_input("Results per search", min_value=1, max_value=50,
                                         value=C.ANTHROPIC_SEARCH_RESULTS_DEFAULT, key="strat_results",
                                         help=f"Anthropic default {C.ANTHROPIC_SEARCH_RESULTS_DEFAULT}; OpenAI publishes "
                                              "none, the same number is assumed.")
    st.markdown("**Provider search (OpenAI)**")
    group_servers = st.toggle("Group each MCP server's deferred tools", value=True, key="strat_group",
                              help="On: each MCP server shows only its name and description until searched. Off: "
                                   "every deferred tool shows its name and description (parameters deferred).")
    ns_text = st.text_area("Namespaces (YAML)", value="", placeholder=NAMESPACE_EXAMPLE, key="strat_namespaces",
                           help=f"OpenAI recommends fewer than {C.OPENAI_NAMESPACE_MAX_FUNCTIONS} functions per namespace.")
    namespaces: tuple[Namespace, ...] = ()
    if ns_text.strip():
        try:
            data = load_yaml(ns_text, "Namespaces")
            if not isinstance(data, list):
                raise ValueError("expected a list of {name, description, tools}")
            parsed = []
            for i, item in enumerate(data):
                if not (isinstance(item, dict) and isinstance(item.get("name"), str)
                        and isinstance(item.get("tools"), list)):
                    raise ValueError(f"[{i}]: expected a mapping with a name and a tools list")
                # a mapping or a number read as its Python text would be a name no tool has
                description = "" if item.get("description") is None else item["description"]
                if not isinstance(description, str):
                    raise ValueError(f"[{i}].description: expected text, got {yaml_kind(description)}")
                bad = next((j for j, t in enumerate(item["tools"]) if not isinstance(t, str)), None)
                if bad is not None:
                    raise ValueError(f"[{i}].tools[{bad}]: expected a tool wire name (text), got "
                                     f"{yaml_kind(item['tools'][bad])}")
                parsed.append(Namespace(item["name"], description, tuple(item["tools"])))
            namespaces = tuple(parsed)
        except (ToolsearchError, ValueError) as exc:
            st.error(_plain(f"Namespaces not used: {exc}"), icon=":material/error:")
    st.markdown("**Skill-linked and combined**")
    pinned = tuple(st.multiselect("Pinned skills", skill_names, key="strat_pinned", wrap=True, format_func=common.visible,
                                  help="In the input before the first call, with their tools."))
    mid = st.toggle("Model takes tools mid-conversation without touching tools", key="strat_mid",
                    help="On: a read skill's tools arrive in the conversation and the cache survives. Off: they are "
                         "appended to tools and the cache breaks at that point.")

settings = StrategySettings(
    tokenizer=v.display_tokenizer, tool_tokens=int(tool_tokens) if tool_tokens is not None else None, config=v.config,
    context_length=v.context_length, planning_tokenizer=v.tokenizer, non_deferred=non_deferred,
    search_variant=variant, anthropic_search_results=int(results_per_search),
    openai_search_results=int(results_per_search), group_servers=group_servers, namespaces=namespaces,
    pinned_skills=pinned, mid_conversation_tools=mid)
model_key = _digest(id(inspector), source_label, skills, settings)
model = _model(model_key, inspector, skills, settings)
if skills.skills and not any(model.links.get(s.name) for s in skills.skills):
    st.warning(f"None of the {counted(len(skills.skills), 'loaded skill')} names a tool of this catalog in its "
               "include_tools (they were written for another catalog), so the skill-linked strategy unlocks "
               "nothing here. Load skills for this catalog, or choose “No skills”.", icon=":material/link_off:")
if events_ok:
    try:
        model.check_events(events, "events table")
    except ToolsearchError as exc:
        st.error(_plain(str(exc)), icon=":material/error:")
        events_ok = False
results, timeline = _run(_digest(model_key, task, events if events_ok else ()), model, task,
                         events if events_ok else ())
tk = settings.tokenizer
# The Report page includes the last strategies computed in this session.
st.session_state["_strategies_for_report"] = {
    "label": f"{source_label}: {task_words(task)}, tokens in {tk}",
    "results": results}

# --- per strategy ------------------------------------------------------------------------------------
st.subheader("Per strategy")
st.text(common.visible_name(f"Catalog: {inspector.catalog.name} · {counted(len(tool_names), 'tool')} · "
                            f"{counted(len(skill_names), 'skill')} · task: {task_words(task)} · tokens in {tk}"))
if model.scope is not None:
    withheld = sorted({t for tools in model.withheld.values() for t in tools})
    st.text(common.visible(
        f"Scope {model.scope.name}: {len(tool_names):,} of {len(inspector.full_registration.tools):,} tools in the "
        f"session. Skill-linked tools the scope does not allow are never disclosed, as a per-user resolver "
        f"would leave them out: {len(withheld)} withheld" + (f" ({', '.join(withheld[:8])}"
                                                             f"{' …' if len(withheld) > 8 else ''})" if withheld else "")
        + ". A call of one fails in every strategy."))
table = [{
    "strategy": r.label, f"up front (tokens, {tk})": r.upfront_tokens, f"task (tokens, {tk})": r.task_tokens,
    "round trips": r.round_trips, "cache breaks": r.cache_breaks,
    "read before call": read_before_call_words(r.read_before_call),
    TOOLS_SHOWN_COLUMN: r.tools_upfront, CALLABLE_COLUMN: r.callable_upfront,
} for r in results]
literal_table(table, key="strat_table", styles={"strategy": _strategy_style})
st.caption("round trips (count): discovery turns before the task's first calls · cache breaks (count): events of the "
           "task after which the prompt prefix changed · read before call: a skill-linked tool can only be called "
           "after its skill was read · tools shown up front (count): tool entries in front of the model before the "
           "first turn · callable up front (count): tools a call would succeed for before the first turn.")
by_id = {r.strategy: r for r in results}
if ALL_UPFRONT in by_id:  # the figure the Overview shows under a similar name, counted differently
    same = source == SIDEBAR and settings.tool_tokens is None
    st.caption(signals.all_upfront_note(by_id[ALL_UPFRONT].upfront_tokens, dict(by_id[ALL_UPFRONT].upfront_breakdown),
                                        tk, v.plan.eager_tokens if same else None))
    if same and TIERED in by_id:  # likewise "Tools array with tool search", once skills are listed
        tiered = signals.tiered_note(by_id[TIERED].upfront_tokens, dict(by_id[TIERED].upfront_breakdown), tk,
                                     v.plan.tools_tokens)
        if tiered:
            st.caption(tiered)
if ALL_UPFRONT in by_id and SKILL_LINKED in by_id and skill_names:
    st.caption(f"Task tokens ({tk}): the prompt once the task's skills were read and its tools reached.")
    # Numbers without the unit (it is in the caption above); a wrapping row of content-wide metrics,
    # so no label or note is cut at 1024 px.
    m1 = m2 = m3 = st.container(horizontal=True, gap="medium")
    # Labeled as task figures: the table beside them shows each strategy's up-front figure too.
    m1.metric(f"{STRATEGY_LABELS[ALL_UPFRONT]}: task", f"{by_id[ALL_UPFRONT].task_tokens:,}",
              f"{common.fmt_tokens(by_id[ALL_UPFRONT].upfront_tokens)} before any work", delta_color="off",
              delta_arrow="off", width="content",
              help=f"Before any work: the Overview's “{signals.ALL_SCHEMAS}” plus the skill listing; after the "
                   "task: plus the skill bodies it read.")
    linked = by_id[SKILL_LINKED]
    m2.metric(f"{STRATEGY_LABELS[SKILL_LINKED]}: task", f"{linked.task_tokens:,}",
              f"{common.fmt_tokens(linked.upfront_tokens)} up front", delta_color="off", delta_arrow="off",
              width="content")
    m3.metric("Difference (all up front − skill-linked)",
              f"{by_id[ALL_UPFRONT].task_tokens - linked.task_tokens:,}",
              "task tokens saved by skill-linked disclosure", delta_color="off", delta_arrow="off",
              width="content")
st.plotly_chart(charts.strategy_metrics_figure(results, tk), key="strat_metrics", width="stretch")
st.caption("Round trips: model turns a strategy needs before a tool's first call (search, describe, a skill read it "
           "requires), each counted once for the first tool that needs it. Cache breaks: events of the task after "
           "which the prompt prefix (tools and system prompt) was not the same as before. Colors: one per strategy, "
           "the same in every table and chart of this page.")

breakdown_box = st.expander("What the prompt holds before the first turn", key="strat_breakdown_open",
                            on_change="rerun")
if breakdown_box.open:  # drawn only when opened: one chart fewer to send and draw on the first load
    breakdown_box.plotly_chart(charts.upfront_breakdown_figure(results, tk), key="strat_breakdown", width="stretch")
if task.tools_used:
    st.markdown("**Round trips before the first call of each tool**")
    literal_table([{"tool": tool, **{r.label: r.per_tool[i].round_trips for r in results}}
                   for i, tool in enumerate(task.tools_used)], key="strat_per_tool")
    how_box = st.expander("How each tool was reached", key="strat_how_open", on_change="rerun")
    if how_box.open:  # drawn only when opened
        literal_table([{
            "strategy": r.label, "tool": t.tool, "round trips (count)": t.round_trips,
            "how": f"{t.via}: {' → '.join(t.steps)}" if t.steps else t.via,
            "call": ("ok" if t.called else "failed") + (f": {t.message}" if t.message else ""),
        } for r in results for t in r.per_tool], key="strat_how", styles={"strategy": _strategy_style},
            container=how_box)
rules_box = st.expander("Rules applied and assumptions", key="strat_rules_open", on_change="rerun")
if rules_box.open:  # drawn only when opened
    for r in results:
        rules_box.text(f"{r.label}: {STRATEGY_SUMMARIES[r.strategy]}")
        for note in r.notes:
            rules_box.text(f"    · {common.visible_name(note)}")

# --- timeline -----------------------------------------------------------------------------------------
st.subheader("Timeline")
if not timeline:
    st.info("No events: add rows to the events table (or load an events file) to see the prompt after each event.")
else:
    st.caption("Prompt size after each event (tokens). ✕ the cached prefix broke after that event; ○ the event "
               "failed for that strategy (for example a call before its skill was read, or a deferred tool not "
               "loaded by a search yet). Events run as given: no strategy searches or reads on its own here."
               + model.timeline_start_note(events))
    log_y = st.toggle("Log scale (tokens)", value=True, key="strat_log_y",
                      help="On by default: all up front is often 10–100× the other strategies, which would "
                           "flatten their lines at the bottom.")
    figure = charts.timeline_figure(timeline, tk)
    if log_y:
        figure.update_yaxes(type="log", rangemode="normal", dtick="D2", title_text=f"prompt (tokens, {tk}, log scale)")
    st.plotly_chart(figure, key="strat_timeline", width="stretch")
    wide = [{"step": s.index, "event": s.event.label() if s.event else "start",
             **{STRATEGY_LABELS[x.strategy]: x.prompt_tokens for x in s.states}} for s in timeline]
    marks = {(s.index, STRATEGY_LABELS[x.strategy]): (x.cache_holds, x.outcome) for s in timeline for x in s.states}

    def shade(row: dict, column: str) -> str:
        if (row["step"], column) not in marks:
            return ""
        holds, outcome = marks[(row["step"], column)]
        if outcome == "failed":
            return f"background-color: #ffcdd2; color: {LIGHT_FILL_TEXT}"
        return "" if holds else f"background-color: #ffe0b2; color: {LIGHT_FILL_TEXT}"
    st.caption(f"Prompt (tokens, {tk}) per strategy. Orange cell: the cached prefix broke; red cell: the event failed.")
    literal_table(wide, key="strat_timeline_table", cell_css=shade)
    _switches = harness_switches(model, events) if events_ok else ()
    if _switches:
        st.caption(f"Other harnesses' switches at {length_label(v.context_length)} (models, see the Harnesses page; MCP "
                   f"tokens in {switch_tokenizer(settings)}, the planning tokenizer, as there): Claude "
                   "Code's ENABLE_TOOL_SEARCH=auto is decided again at every request, so a server added mid-session "
                   "flips it at the next one; Qwen Code's threshold (10%) is decided at session start and after a "
                   "compaction only.")
        literal_table([{"step": x.index, "event": x.event.label() if x.event else "start",
                        "MCP tokens": f"{x.mcp_tokens:,}", "Claude Code auto": "defers" if x.claude_code else "up front",
                        "Qwen Code": ("defers" if x.qwen_code else "up front")
                        + (" (pending change)" if x.qwen_pending != x.qwen_code else ""), "note": x.note}
                       for x in _switches], key="strat_harness_switches")

    labels = {s.index: f"{s.index}: {s.event.label() if s.event else 'start'}" for s in timeline}
    step_index = st.select_slider("Step", options=list(labels), value=len(timeline) - 1,
                                  format_func=lambda i: labels[i], key="strat_step")
    step = timeline[step_index]
    # A segmented control, not tabs: six strategy names do not fit one row of tabs at 1024 px (the
    # last ones hid behind the tab bar's scroll arrow); its buttons wrap onto a second row instead.
    states = {STRATEGY_LABELS[x.strategy]: x for x in step.states}
    shown = st.segmented_control("Strategy at this step", list(states), default=next(iter(states)),
                                 required=True, key="strat_step_strategy", width="stretch")
    for state in [states[shown]] if shown in states else []:
        with st.container():
            st.text(f"{state.outcome}: {state.message}")
            st.text(f"prompt {state.prompt_tokens:,} tokens (prefix {state.prefix_tokens:,}, "
                    f"{state.added_tokens:+,} this step) · cached prefix {'holds' if state.cache_holds else 'BREAKS'}: "
                    f"{state.cache_note}")
            a, b = st.columns(2)
            a.caption(f"Model-visible tools ({counted(len(state.visible_tools), 'entry', 'entries')})")
            literal_table([{"tool": t, "form": f} for t, f in state.visible_tools], container=a,
                          key=f"strat_visible_{state.strategy}", height=400)
            b.caption(f"Callable tools ({len(state.callable):,})")
            literal_table([{"tool": t} for t in state.callable], container=b, key=f"strat_callable_{state.strategy}",
                          height=400)

# --- skills ----------------------------------------------------------------------------------------
st.subheader("Skills")
if not skill_names:
    st.info("No skills loaded: the skill-linked strategy then keeps every tool up front.")
else:
    st.caption("allowed-tools is the Agent Skills pre-approval field (tools the harness may run without asking while "
               "the skill is active); it neither shows nor unlocks tools. include_tools is what links tools to a skill.")
    # Two tables of few columns, so every cell is read in full at 1024 px: what each skill is and
    # costs, then what it links, pre-approves and where it comes from.
    literal_table([{
        "skill": s.name, "description": s.description,
        f"listing line (tokens, {tk})": model.listing_tokens[s.name], f"body (tokens, {tk})": model.body_tokens[s.name],
        "pinned": s.name in model.pinned,
    } for s in skills.skills], key="strat_skills")
    literal_table([{
        "skill": s.name, "include_tools (linked)": " ".join(model.links.get(s.name, ())),
        **({"withheld by the scope": " ".join(model.withheld.get(s.name, ()))} if model.scope is not None else {}),
        "allowed-tools (pre-approval, not disclosure)": " ".join(s.allowed_tools), "file": s.origin,
    } for s in skills.skills], key="strat_skill_links")
problems = [*skills.problems, *model.problems]
if problems:
    with st.expander(f"Skill and settings notes ({len(problems)})"):
        literal_table([{"severity": p.severity, "where": p.where, "message": p.message} for p in problems],
                      key="strat_problems")
