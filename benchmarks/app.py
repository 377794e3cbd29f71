"""App responsiveness benchmark with Streamlit's AppTest (prints numbers, asserts nothing).

Usage: ``python -m benchmarks.app [CATALOG]`` (default ``cloudflare-flat``). Measures the first
load of the Overview page on a fresh process cache, then re-renders after slider moves, per page.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["toolsearch/ui/overview.py", "toolsearch/ui/model_view.py", "toolsearch/ui/search.py", "toolsearch/ui/costs.py", "toolsearch/ui/tuning.py"]


def main(catalog: str = "cloudflare-flat") -> None:
    """Print first-load and slider-move timings for ``catalog``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["catalog"] = catalog
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    if at.exception:
        raise SystemExit(f"app raised: {at.exception}")
    print(f"{catalog}: first load of Overview (cold caches): {first:.2f} s")
    for page in PAGES:
        at.switch_page(page)
        at.run()
        timings = []
        for i, pct in enumerate([1.0, 2.0, 3.5, 5.0, 7.5, 10.0, 15.0, 20.0]):
            at.query_params["pct"] = str(pct)  # the sidebar reads the URL only once per session
            slider = at.sidebar.slider(key="threshold_pct") if at.sidebar.slider else None
            start = time.perf_counter()
            if slider is not None:
                slider.set_value(pct).run()
            else:
                at.run()
            timings.append(time.perf_counter() - start)
        print(f"  {page}: re-render after a slider move: median {statistics.median(timings) * 1000:.0f} ms, "
              f"max {max(timings) * 1000:.0f} ms over {len(timings)} moves")


if __name__ == "__main__":
    main(*sys.argv[1:2])
