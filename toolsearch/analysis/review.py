"""The design-review report as one call: what the app's Report page and ``toolsearch report`` build.

:func:`review_report` runs the pieces the report holds for one catalog and settings (the search
queries, the labeled query file's scores, the lint findings, the disclosure strategies), draws the
charts (plotly.js embedded once) and hands everything to
:func:`toolsearch.analysis.report.build_report`. The page and the command line call it with the
same defaults, so both produce the same HTML for the same inputs (the date aside).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..engine.config import ToolSearchConfig
from ..engine.errors import ToolsearchError
from ..engine.inspector import Inspector
from ..engine.invisible import quoted
from .samples import samples_dir
from .wording import counted

if TYPE_CHECKING:
    from .recommend import MultiRecommendation

# The pieces of the report (evaluation, lint, strategies, the HTML) are imported by the functions
# that build them: the command line's parser reads DEFAULT_QUERIES from here at every start.

#: The search queries a report runs unless told otherwise (one per line).
DEFAULT_QUERIES = "create issue\npost message channel\nsearch errors"
#: The sample events (``sample_skills/events.yaml``) are written for this sample catalog; with
#: another catalog the default strategy comparison has no task.
SAMPLE_EVENTS_CATALOG = "team-workspace"
#: The Strategies page's sample inputs as ``toolsearch strategies`` takes them: the sample skills,
#: and the sample task's events (written for :data:`SAMPLE_EVENTS_CATALOG`). The command reads them
#: from any folder (the checkout's files, or an installed wheel's copies).
SAMPLE_SKILLS_OPTION = ("--skills", "sample_skills")
SAMPLE_EVENTS_OPTION = ("--events", "sample_skills/events.yaml")
#: What the command line and the Strategies page both say of where they start.
STRATEGIES_START_WORDS = (
    "toolsearch strategies starts with no skills and no task; the app's Strategies page starts with the sample "
    f"skills ({' '.join(SAMPLE_SKILLS_OPTION)}) and, on the {SAMPLE_EVENTS_CATALOG} catalog, the sample task "
    f"({' '.join(SAMPLE_EVENTS_OPTION)}): with those options and the sidebar's context length (--context-length) "
    "the command gives the page's figures")


def strategies_command(catalogs: Sequence[str], catalog: str, context_length: int | None,
                       tokenizer: str) -> str:
    """The ``toolsearch strategies`` command that computes the Strategies page's sample comparison:
    ``catalogs`` as a command names them (``[]``: ``CATALOG``), the sample skills, the sample task
    when ``catalog`` (the sidebar's sample name) is :data:`SAMPLE_EVENTS_CATALOG`, the context
    length (tokens, ``None`` = unknown: not given) and the ``tokenizer`` that counts and plans
    (``--tokenizer`` unless the default). Arguments are shell-quoted."""
    from ..engine import constants as C  # noqa: PLC0415
    from .recommend import _length_arg, _shell_word  # noqa: PLC0415

    words = ["toolsearch", "strategies", *(catalogs or ["CATALOG"]), *SAMPLE_SKILLS_OPTION]
    if catalog == SAMPLE_EVENTS_CATALOG:
        words += SAMPLE_EVENTS_OPTION
    if context_length:
        words += ["--context-length", _length_arg(context_length)]
    if tokenizer != C.DEFAULT_TOKENIZER:
        words += ["--tokenizer", tokenizer]
    return " ".join(w if w == "CATALOG" and not catalogs else _shell_word(w) for w in words)


def shipped_query_files(folder: Path | None = None) -> dict[str, Path]:
    """``{stem: path}`` of the labeled query files shipped with the samples
    (``sample_catalogs/queries/*.yaml``, or those in ``folder``), sorted by stem."""
    folder = folder if folder is not None else samples_dir("sample_catalogs") / "queries"
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}


def default_query_file(catalog: str, files: dict[str, Path]) -> Path | None:
    """The query file a report scores by default: the shipped one named like the catalog (a sample
    catalog's stem), else none."""
    return files.get(catalog)


def companion_query_file(sources: Sequence[str]) -> Path | None:
    """The labeled query file ``report`` and ``eval`` score when none is given: the shipped one
    named like the one catalog file of ``sources`` (``sample_catalogs/queries/team-workspace.yaml``
    for ``team-workspace.yaml``, wherever the catalog file is); ``None`` for several sources or when
    none ships for it."""
    from ..engine.readers import source_stem  # noqa: PLC0415

    if len(sources) != 1:
        return None
    return default_query_file(source_stem(sources[0]), shipped_query_files())


@dataclass(frozen=True)
class StrategyComparison:
    """The disclosure strategies compared for a report: ``label`` says for which skills and task."""

    label: str
    results: tuple


def default_strategies(inspector: Inspector, catalog: str, source_label: str, config: ToolSearchConfig,
                       context_length: int | None, planning_tokenizer: str,
                       display_tokenizer: str) -> StrategyComparison:
    """The Strategies page's default comparison: the sample skills, and the sample task when
    ``catalog`` is :data:`SAMPLE_EVENTS_CATALOG` (no task elsewhere); tokens in
    ``display_tokenizer``. Unreadable sample skills or events count as none.

    Raises:
        ToolsearchError: the strategy model cannot be built for this catalog.
    """
    from .skills import SkillSet, load_skills  # noqa: PLC0415
    from .strategies import StrategyModel, StrategySettings, Task, load_events, task_summary  # noqa: PLC0415

    skills_dir = samples_dir("sample_skills")
    try:
        skills = load_skills(skills_dir) if skills_dir.exists() else SkillSet()
    except ToolsearchError:
        skills = SkillSet()
    task = Task()
    events_file = skills_dir / "events.yaml"
    if catalog == SAMPLE_EVENTS_CATALOG and events_file.exists():
        try:
            events = load_events(events_file)
        except ToolsearchError:
            events = ()
        tools = {t.name for t in inspector.registration.tools}
        read = tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "read_skill" and str(e.arg) in skills.names))
        used = tuple(dict.fromkeys(str(e.arg) for e in events if e.kind == "call" and str(e.arg) in tools))
        task = Task(read, used)
    settings = StrategySettings(tokenizer=display_tokenizer, config=config, context_length=context_length,
                                planning_tokenizer=planning_tokenizer)
    results = StrategyModel(inspector, skills, settings).results(task)
    what = counted(len(skills.names), "sample skill") if skills.names else "no skills"
    return StrategyComparison(f"{source_label}: {what}, {task_summary(task)}, tokens in {display_tokenizer} "
                              "(the Strategies page's defaults)", tuple(results))


def report_context_length(context_length: int | None, context_lengths: Sequence[int | None] | None, *,
                          given: bool, lengths_name: str) -> tuple[int | None, str]:
    """The context length a report's single-length sections (settings, budget, tier and form,
    servers, the settings that reach each form, costs, strategies) are planned at, and the words
    that say why (empty: it is the one given).

    ``context_length`` (tokens, ``None`` = unknown) wins when ``given`` (the user chose it) or when
    no ``context_lengths`` are listed. Otherwise the shortest known length of ``context_lengths``
    is used: the budget is smallest there, so the listing is tightest, and the report shows a length
    the harness serves beside the recommendation for all of them. ``lengths_name`` names where the
    lengths came from in those words (``--context-lengths``, ``the Tuning page's context lengths``).
    With only unknown lengths listed, the length is unknown.
    """
    if given or not context_lengths:
        return context_length, ""
    known = [n for n in context_lengths if n]
    if not known:
        return None, ""
    return min(known), f"the shortest of {lengths_name}"


def generated_now() -> str:
    """The report's "generated" time, ``2026-01-31 09:30 UTC``: now, or the time the environment's
    ``SOURCE_DATE_EPOCH`` (whole seconds since 1970, the reproducible-builds convention) names, so a
    build that sets it writes the same report for the same inputs. A value that is not a whole
    number of seconds is ignored (:func:`source_date_epoch_problem` says why)."""
    when = _source_date() or datetime.now(timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _source_date() -> datetime | None:
    """The time ``SOURCE_DATE_EPOCH`` names, or ``None`` when it is unset or cannot be used."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isascii() and epoch.isdigit():
        try:
            return datetime.fromtimestamp(int(epoch), timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    return None


def source_date_epoch_problem() -> str | None:
    """Why a ``SOURCE_DATE_EPOCH`` that is set (not empty) does not fix the report's time, so a build
    that meant to write the same report twice is told instead of getting two times; ``None`` when it
    is unset, empty or used."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if not epoch.strip() or _source_date() is not None:
        return None
    return (f"SOURCE_DATE_EPOCH={quoted(epoch)} is not a whole number of seconds since 1970 within the dates "
            "a report can carry, so the report carries the current time")


def review_report(inspector: Inspector, config: ToolSearchConfig, context_length: int | None,
                  tokenizer: str, display_tokenizer: str, *, source_label: str, fingerprint: str,
                  queries: Sequence[str] = tuple(DEFAULT_QUERIES.splitlines()), query_file: Path | None = None,
                  include_lint: bool = True, strategies: StrategyComparison | None = None,
                  strategies_for: Callable[[], StrategyComparison] | None = None,
                  generated: str | None = None,
                  progress: Callable[[str], None] | None = None,
                  problems: list[str] | None = None,
                  recommendation: MultiRecommendation | None = None, profile_path: str | None = None,
                  catalogs: Sequence[str] = (), client_configs: Sequence[str] = (), config_file: str = "config.yaml",
                  recommendation_warnings: Sequence[str] = (),
                  context_note: str = "", compared_with: ToolSearchConfig | None = None,
                  notes: Sequence[str] = ()) -> str:
    """The report HTML (one self-contained UTF-8 document) for one catalog and settings.

    Args:
        inspector, config, context_length, tokenizer, display_tokenizer: the catalog and settings
            (context length in tokens, ``None`` = unknown; planning and display tokenizers).
        source_label: where the catalog came from, for the summary; ``fingerprint`` a content key
            of the catalog (e.g. 16 hex digits of a sha256).
        queries: ``tool_search`` queries whose response the report shows (none: no search section).
        query_file: a labeled query file scored with the default variants, or ``None``.
        include_lint: include the lint findings.
        strategies: the disclosure strategies to show; when ``None``, ``strategies_for()`` computes
            them (e.g. :func:`default_strategies`), and with neither the section says "not computed".
        generated: the time shown in the header (default: now, UTC, to the minute).
        progress: called with a short line before each step (for a status display).
        problems: a list that receives one line per section left out because its input could not
            be used (the query file, the strategies); the report is built without that section.
        recommendation: the settings for several context lengths at once
            (:func:`toolsearch.analysis.recommend.recommend_for_contexts` for this catalog and
            ``config``), or ``None`` (the section says how to get one); ``profile_path`` the
            wording profile file given for the catalog, for its config block's ``# gate:`` line;
            ``catalogs`` the catalog files as given, which that line names (none: ``CATALOG``), and
            ``client_configs`` the MCP client configs among them, read from the snapshot a
            ``# snapshot:`` line saves (:func:`toolsearch.analysis.recommend.export_block`);
            ``recommendation_warnings`` sentences (plain text) shown as warnings beside it, e.g.
            what the catalog lacks that ``toolsearch recommend`` would refuse it for.
        context_note: why the report is planned at ``context_length``, shown beside it wherever the
            report names it (the words of :func:`report_context_length`; empty: nothing to say).
        compared_with: the settings the recommendation replaces, for where it lists less (the
            app's settings before "Apply to the sidebar"); ``None``: ``config``.
        notes: sentences (plain text) put first in the report's Notes, e.g. how the harness config's
            MCP servers disagree with the catalog's.

    Raises:
        TokenizerError: an unknown tokenizer name.
    """
    from . import palette  # noqa: PLC0415
    from .evaluation import DEFAULT_VARIANTS, evaluate, load_queries  # noqa: PLC0415
    from .lint import lint  # noqa: PLC0415
    from .report import build_report  # noqa: PLC0415

    def step(text: str) -> None:
        if progress is not None:
            progress(text)

    plan = inspector.plan(config, context_length, tokenizer, display_tokenizer)
    search = None
    if queries and plan.activated and plan.deferred_count:
        step("Running the search queries…")
        search = inspector.bridge(config).tool_search({"queries": list(queries)})
    evaluation = None
    if query_file is not None:
        step("Scoring the query file…")
        try:
            evaluation = evaluate(inspector, load_queries(query_file), DEFAULT_VARIANTS, config)
        except ToolsearchError as exc:
            if problems is not None:
                problems.append(f"Search quality left out: {exc}")
    lint_report = None
    if include_lint:
        step("Linting the catalog…")
        lint_report = lint(inspector, config)
    if strategies is None and strategies_for is not None:
        step("Comparing the disclosure strategies…")
        try:
            strategies = strategies_for()
        except ToolsearchError as exc:
            if problems is not None:
                problems.append(f"Disclosure strategies left out: {exc}")
    step("Drawing the charts…")
    from . import charts  # noqa: PLC0415 - plotly is imported by the commands that draw, not by every command line run
    planning_plan = (plan if display_tokenizer == tokenizer
                     else inspector.plan(config, context_length, tokenizer, tokenizer))
    listing_title = f"The listing against the budget ({plan.planning_tokenizer})"
    costs_title = f"Per-server costs ({plan.display_tokenizer}, log scale)"
    if plan.activated and plan.deferred_count:
        figures = charts.figures_html({listing_title: charts.listing_budget_figure(planning_plan),
                                       costs_title: charts.costs_figure(plan)})
    else:
        figures = charts.figures_html({costs_title: charts.costs_figure(plan)})
    return build_report(
        inspector, config, context_length, tokenizer, display_tokenizer, figures,
        source_label=source_label, state_colors=palette.STATE_COLORS,
        generated=generated or generated_now(),
        fingerprint=fingerprint, search=search, lint_report=lint_report, evaluation=evaluation,
        strategies=list(strategies.results) if strategies else None,
        strategies_label=strategies.label if strategies else None,
        severity_colors=palette.SEVERITY_COLORS, strategy_colors=palette.STRATEGY_COLORS,
        figure_keys={listing_title: charts.listing_key_rows(planning_plan)}, recommendation=recommendation,
        profile_path=profile_path, catalogs=catalogs, client_configs=client_configs, config_file=config_file,
        recommendation_warnings=recommendation_warnings,
        context_note=context_note, compared_with=compared_with, notes=notes)


def report_summary(html_text: str) -> dict[str, Any]:
    """Size facts of a built report: ``{"bytes": UTF-8 size, "plotly_copies": embedded plotly.js copies}``."""
    return {"bytes": len(html_text.encode("utf-8")), "plotly_copies": html_text.count("window.PlotlyConfig")}
