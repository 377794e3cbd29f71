"""HTML report benchmark: size, plotly.js copies and opening time in headless Chromium.

Usage: ``python -m benchmarks.report [CATALOG ...] [--tools N --servers M]`` (default: the app's
default catalog ``team-workspace`` and ``cloudflare-flat``; ``--tools`` adds a ``toolsearch synth``
catalog of that size). Each report is built as the Report page builds it (the per-server costs
chart and the form heatmap embedded, plotly.js inlined once) at the app's default settings, written
to a temporary file and opened from disk in Debian's Chromium (``/usr/bin/chromium``).

Prints per catalog: build time, size, plotly.js copies, then, opening the file in a fresh browser
each time (median over the runs): the first contentful paint, when every text and table is shown
(``DOMContentLoaded``), the browser's ``load`` event, when every chart has drawn (its SVG exists),
and the longest main-thread task (the page does not answer input meanwhile). plotly.js runs after
the load event (each chart says "Chart loading…" until then), so "every chart drawn" is the
figure that includes its 4.8 MB. Prints numbers; it asserts nothing. Targets: plotly.js once,
under 6 MB, open in under 2 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's toolsearch (the app's chart module builds the figures)

CHROMIUM = "/usr/bin/chromium"
CONTEXT_LENGTH = 200_000  # the app's default context length
PLOTLY_MARK = "window.PlotlyConfig"  # written once before each inlined copy of plotly.js


def build(path: Path) -> tuple[str, float, int]:
    """The report HTML as the Report page builds it: ``(html, seconds, figures)``."""
    from toolsearch.analysis import charts  # noqa: PLC0415
    from toolsearch.analysis.palette import STATE_COLORS  # noqa: PLC0415
    from toolsearch.engine.config import parse_config  # noqa: PLC0415
    from toolsearch.engine.inspector import Inspector  # noqa: PLC0415
    from toolsearch.analysis.report import build_report  # noqa: PLC0415
    from toolsearch.analysis.sweep import form_grid, listing_ladder  # noqa: PLC0415

    inspector = Inspector.from_files([path])
    config = parse_config({})
    start = time.perf_counter()
    plan = inspector.plan(config, CONTEXT_LENGTH)
    figures = charts.figures_html({
        "Per-server costs": charts.costs_figure(plan),
        "Listing form heatmap": charts.sweep_figure(form_grid(listing_ladder(inspector.planner, config), config),
                                                    current=(CONTEXT_LENGTH, config.threshold_pct)),
    })
    html = build_report(inspector, config, CONTEXT_LENGTH, figures=figures, source_label=path.name,
                        state_colors=STATE_COLORS)
    return html, time.perf_counter() - start, len(figures)


#: Records the page's long tasks (main thread busy over 50 ms) from the start of the page.
_LONG_TASKS = """window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({type: 'longtask', buffered: true});"""


def open_times(files: list[tuple[Path, int]], runs: int) -> dict[Path, dict[str, float]]:
    """Median seconds per file, each opening in a fresh browser (nothing cached): ``paint`` (first
    contentful paint), ``text`` (DOMContentLoaded: every text and table of the report parsed and
    shown), ``load`` (the load event), ``drawn`` (every chart drawn: its SVG exists) and
    ``longest`` (the longest main-thread task, during which the page does not answer input)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    out = {}
    with sync_playwright() as pw:
        for path, n_figures in files:
            samples: dict[str, list[float]] = {"paint": [], "text": [], "load": [], "drawn": [], "longest": []}
            for _ in range(runs):
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.add_init_script(_LONG_TASKS)
                start = time.perf_counter()
                page.goto(path.as_uri(), wait_until="load", timeout=60_000)
                samples["load"].append(time.perf_counter() - start)
                page.wait_for_function(f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n_figures}",
                                       timeout=60_000)
                samples["drawn"].append(time.perf_counter() - start)
                paint, text, longest = page.evaluate(
                    "[(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || 0,"
                    " performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,"
                    " Math.max(0, ...window.__longTasks)]")
                samples["paint"].append(paint / 1000)
                samples["text"].append(text / 1000)
                samples["longest"].append(longest / 1000)
                browser.close()
            out[path] = {key: statistics.median(values) for key, values in samples.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__.splitlines()[0])
    parser.add_argument("catalogs", nargs="*", help="catalog files (default: team-workspace and cloudflare-flat)")
    parser.add_argument("--tools", type=int, help="also a synthetic catalog of this many tools")
    parser.add_argument("--servers", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5, help="openings per report (default 5)")
    options = parser.parse_args()
    paths = [Path(p) for p in options.catalogs] or [ROOT / "sample_catalogs" / "team-workspace.yaml",
                                                    ROOT / "sample_catalogs" / "cloudflare-flat.yaml"]
    if options.tools:
        from benchmarks.engine import synthetic_file  # noqa: PLC0415

        paths.append(synthetic_file(options.tools, options.servers))
    print(f"machine: {os.cpu_count()} CPUs; load average: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    folder = Path(tempfile.mkdtemp(prefix="toolsearch-report-"))
    files = []
    for path in paths:
        html, seconds, n_figures = build(path)
        out = folder / f"{path.stem}.html"
        out.write_text(html, encoding="utf-8")
        size = out.stat().st_size
        print(f"{path.name}: built in {seconds:.2f} s; {size / 1_000_000:.2f} MB ({size:,} bytes); "
              f"plotly.js embedded {html.count(PLOTLY_MARK)} time(s); {n_figures} charts")
        files.append((out, n_figures))
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is not installed: opening times not measured")
        return
    for path, t in open_times(files, options.runs).items():
        print(f"{path.stem}: open in Chromium (fresh browser each time, median of {options.runs}): first contentful "
              f"paint {t['paint'] * 1000:.0f} ms, every text and table shown (DOMContentLoaded) {t['text'] * 1000:.0f} ms, "
              f"load event {t['load'] * 1000:.0f} ms, every chart drawn {t['drawn'] * 1000:.0f} ms; longest "
              f"main-thread task {t['longest'] * 1000:.0f} ms")
    print("machine load average after: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
