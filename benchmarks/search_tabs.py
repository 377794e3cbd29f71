"""Browser benchmark: bytes the browser receives when the Search page's Describe and Call
validation tabs are opened (prints numbers, asserts nothing).

Starts ``streamlit run app.py`` (as :mod:`benchmarks.browser` does), opens the Search page on a
catalog in headless Chromium, then clicks each tab and counts the bytes received on the app's
websocket until the run has ended and the page is quiet; then it types a filter into the tool
picker (on a catalog large enough to have one) and counts that too.

``--catalog-file PATH`` measures any catalog file (for example one written by
``toolsearch synth --tools 50000 --servers 200 -o big.json``): the app only offers the files in
``sample_catalogs/``, so the file is linked there under a temporary name for the run and the
link is removed afterwards.

Usage::

    python -m benchmarks.search_tabs                          # the default catalog and cloudflare-flat
    python -m benchmarks.search_tabs --catalog-file /tmp/big.json
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from benchmarks.browser import CHROMIUM, DEFAULT_CATALOG, Meter, _open, linked_catalog, streamlit_app

TABS = ("Describe", "Call validation")
#: The text typed into the picker's filter (a word most synthetic tool names contain).
FILTER = "list"


def _open_tab(meter: Meter, title: str) -> tuple[float, float, int]:
    tab = meter.page.get_by_role("tab", name=title, exact=True)
    return meter.measure(lambda: tab.click())


def _type_filter(meter: Meter, tab_title: str) -> tuple[float, float, int] | None:
    panel = meter.page.get_by_role("tabpanel", name=tab_title)
    box = panel.locator('input[aria-label^="Filter tools"]')
    if box.count() == 0:
        return None  # a small catalog: the plain picker, no filter box

    def action() -> None:
        box.first.fill(FILTER)
        box.first.press("Enter")
    return meter.measure(action)


def _line(what: str, sample: tuple[float, float, int]) -> str:
    ended, quiet, received = sample
    return f"  {what:<34} received {received / 1024:9.1f} KiB, run ended {ended:6.0f} ms, quiet {quiet:6.0f} ms"


def run(catalogs: list[str], port: int | None) -> None:
    """Measure and print, per catalog: opening each tab, then filtering its picker."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    print(f"machine: {os.cpu_count()} CPUs; load average: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))
    with streamlit_app(port) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
        context = browser.new_context(viewport={"width": 1500, "height": 1100})
        for catalog in catalogs:
            meter = Meter(context.new_page())
            start = time.perf_counter()
            _open(meter, url, "search", catalog)
            print(f"{catalog}: Search page loaded in {time.perf_counter() - start:.1f} s "
                  f"({meter.received / 1024:,.1f} KiB received)")
            for title in TABS:
                print(_line(f"open the {title} tab", _open_tab(meter, title)), flush=True)
                filtered = _type_filter(meter, title)
                if filtered is not None:
                    print(_line(f"type {FILTER!r} into its filter", filtered), flush=True)
            meter.page.close()
        browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search_tabs", description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", action="append", dest="catalogs", metavar="NAME",
                        help=f"sample catalog name (repeatable; default {DEFAULT_CATALOG} and cloudflare-flat)")
    parser.add_argument("--catalog-file", type=Path, metavar="PATH",
                        help="a catalog file to measure (linked into sample_catalogs/ for the run)")
    parser.add_argument("--port", type=int, help="port for streamlit (default: a free one)")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is not installed (apt-get install chromium)")
    catalogs = list(args.catalogs or ([] if args.catalog_file else [DEFAULT_CATALOG, "cloudflare-flat"]))
    with linked_catalog(args.catalog_file) as linked:
        run([*catalogs, *([linked] if linked else [])], args.port)

if __name__ == "__main__":
    main()
