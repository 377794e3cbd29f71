"""Overview (Streamlit ``AppTest``): the share of "All schemas up front" that tool search saves is
never rounded up to 100 % when some tokens are still sent (the combined catalog saves 99.6 %)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of
from toolsearch.engine.config import parse_config
from toolsearch.analysis import quantities as Q

ROOT = Path(__file__).absolute().parent.parent
SAMPLES = ROOT / "sample_catalogs"


def test_saved_share_short_of_all_is_not_shown_as_100_percent():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"with": "cloudflare-flat"})
    at.run()
    assert not at.exception, at.exception
    plan = inspector_of([SAMPLES / "team-workspace.yaml", SAMPLES / "cloudflare-flat.yaml"]).plan(
        parse_config({}), 200_000)
    saved, eager = Q.saved_per_request(plan), Q.all_schemas_up_front(plan)
    assert 0 < eager - saved and round(100 * saved / eager) == 100  # the case: 99.5 % or more, not all
    metric = next(m for m in at.metric if m.label == Q.SAVED.name)
    assert metric.value == f"{saved:,}"
    assert metric.proto.delta == f"{int(1000 * saved / eager) / 10:.1f}% of all schemas up front", metric.proto.delta
    assert not metric.proto.delta.startswith("100%")


def test_report_says_the_same_share_as_the_overview(tmp_path):
    """The HTML report (``toolsearch report``) shows the saved share the Overview page shows
    (``quantities.saved_share_words``), not a whole-percent rounding that reads as "100%"."""
    import html
    import re

    from conftest import run_cli

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "cloudflare-flat", "ctx": "200K"})
    at.run()
    assert not at.exception, at.exception
    page = next(m for m in at.metric if m.label == Q.SAVED.name).proto.delta
    plan = inspector_of([SAMPLES / "cloudflare-flat.yaml"]).plan(parse_config({}), 200_000)
    assert page == Q.saved_share_words(plan) == "99.8% of all schemas up front"
    out = tmp_path / "r.html"
    run_cli("report", str(SAMPLES / "cloudflare-flat.yaml"), "--context-length", "200000", "-o", str(out))
    text = html.unescape(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")))
    shares = set(re.findall(r"\(([\d.]+% of all schemas up front)\)", text))
    assert shares == {page}
