"""Page-wide CSS and cell styles: the busy bar, metric rows, state-colored table cells."""

from __future__ import annotations

from typing import Any

from toolsearch.analysis import palette

#: One color per state / form, used by every table and chart (see toolsearch/analysis/palette.py).
STATE_COLORS = palette.STATE_COLORS


def _state_css(value: Any) -> str:
    """CSS for a state cell: the state's color with black or white text (AA contrast)."""
    return palette.cell_style(STATE_COLORS.get(value))


#: A working indicator for runs over 250 ms (see toolsearch/ui/router.py): hidden until the app's root says a run is
#: in progress (``data-test-script-state``), then shown after a delay, with a bar sliding along the
#: top of the window. Its element container takes no room in the page.
BUSY_BAR_HTML = """<style>
.stElementContainer:has(.ts-busy){position:absolute;height:0;margin:0;overflow:visible}
.ts-busy{position:fixed;top:0;left:0;right:0;height:4px;z-index:1000000;pointer-events:none;opacity:0;
  overflow:hidden;background:rgba(0,114,178,.18)}
.ts-busy::before{content:"";position:absolute;top:0;bottom:0;left:0;width:30%;background:#0072B2;
  transform:translateX(-100%)}
[data-test-script-state="running"] .ts-busy,[data-test-script-state="rerunRequested"] .ts-busy{
  animation:ts-busy-in 0s linear .25s forwards}
[data-test-script-state="running"] .ts-busy::before,[data-test-script-state="rerunRequested"] .ts-busy::before{
  animation:ts-busy-slide 1.1s ease-in-out .25s infinite}
@keyframes ts-busy-in{to{opacity:1}}
@keyframes ts-busy-slide{from{transform:translateX(-100%)}to{transform:translateX(340%)}}
@media (prefers-reduced-motion:reduce){
  [data-test-script-state="running"] .ts-busy::before{animation:none;transform:none;width:100%}}
</style><div class="ts-busy" data-testid="busy-bar" role="status" aria-label="Working"></div>"""


#: Page-wide layout rules (see toolsearch/ui/router.py). A wrapping row of metrics (``st.container(horizontal=True)``
#: holding only metrics) keeps its own gap between metrics side by side, but when a narrow page
#: moves a metric to the next line, the lines sit 1rem apart (the page's spacing between elements),
#: not a whole gap apart (4rem for ``gap="large"``), so the moved metric stays with its row.
METRIC_ROWS_CSS = ("<style>[data-testid=stHorizontalBlock]:has(> [data-testid=stElementContainer] > "
                   "[data-testid=stMetric]){row-gap:1rem}</style>")


#: Page-wide (see toolsearch/ui/router.py): no "Download as CSV" on Streamlit's grids (the Scopes
#: page's reach grid past twelve scopes, the Strategies page's events editor). Streamlit writes each
#: cell as it is, so a server, scope or argument named ``=HYPERLINK(…)`` became a formula in a
#: spreadsheet, where toolsearch's own CSV output (``sweep --csv``, ``costs --csv``) puts a ``'``
#: before such a cell. The grids keep showing the text as written; copying cells still works.
NO_GRID_CSV_CSS = ("<style>[data-testid=stElementToolbarButton]:has(button[aria-label^='Download as CSV'])"
                   "{display:none}</style>")

#: Page-wide (see toolsearch/ui/router.py): a slider's value above its thumb in the theme's text
#: color. Streamlit draws it in the primary color, which on the dark theme's page reads at about
#: 3.9:1, below the 4.5:1 text needs (the Strategies page's Step names a whole event there).
SLIDER_VALUE_CSS = "<style>[data-testid=stSlider] [data-testid=stSliderThumbValue]{color:inherit}</style>"

#: Keys of the multiselects whose chosen values are few by construction (the search variants): each
#: shows every chosen value, however many lines they wrap to.
WHOLE_TAG_MULTISELECTS = ("quality_variants", "sessions_variants")
#: Page-wide (see toolsearch/ui/router.py): Streamlit caps a multiselect's box at about five lines of
#: chosen values and scrolls the rest inside it; at 1024 px the Search quality page's eleven variants
#: wrap to six lines, and the last line was cut through the middle. Those boxes grow to show them all.
WHOLE_TAGS_CSS = ("<style>" + ",".join(f".st-key-{key} div:has(> [data-testid=stMultiSelectTagsContainer])"
                                       for key in WHOLE_TAG_MULTISELECTS) + "{max-height:none}</style>")


#: Prefix of the keyed containers that hold a query card's "Why:" line on the Search page.
WHY_KEY = "search_why_"
#: Page-wide (see toolsearch/ui/router.py): a query card's "Why:" line on the Search page in caption
#: style (Streamlit's caption size, dimmed by opacity so it follows either theme), under its card's
#: title: as plain text it was as large as the title and, wrapping to three lines, read as the heading.
#: It stays ``st.text``: the line holds tool names and query words, shown literally.
WHY_LINE_CSS = (f'<style>[class*="st-key-{WHY_KEY}"] [data-testid=stText]'
                "{font-size:.875rem;line-height:1.5;opacity:.8}</style>")


#: ``styles`` for :func:`toolsearch.ui.tables.literal_table`: state cells in the state colors.
STATE_STYLES = {"state": _state_css}


#: Text on a light cell fill (a highlighted row, a shaded cell): dark on either theme, since the
#: dark theme's light text would vanish on the light fill.
LIGHT_FILL_TEXT = "#31333F"
#: The sent step of the degradation table.
SENT_STEP_CSS = f"font-weight:700;background-color:#F0F0F0;color:{LIGHT_FILL_TEXT}"
