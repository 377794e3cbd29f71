"""While the Tuning page's typed context lengths have an error, the best-collapse table falls back to
other lengths, and its caption names them: "the preset lengths" read as the Preset selector's
choice (32K, 128K, 200K, 1M), which is not what the table shows (Streamlit ``AppTest``)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent


def test_the_fallback_table_caption_names_its_lengths() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    box = next(t for t in at.text_input if t.label == "Context lengths (tokens)")
    box.set_value("32,000, 200,000").run()
    assert not at.exception, at.exception
    assert any("thousands separator" in str(e.value) for e in at.error), [str(e.value) for e in at.error]
    captions = [str(c.value) for c in at.caption if "The list above has an error" in str(c.value)]
    assert len(captions) == 1, captions
    assert captions[0].endswith("The list above has an error, so the table shows 8K, 32K, 128K, 200K, 400K, 1M "
                                "and an unknown context length instead."), captions[0]
    assert "preset" not in captions[0]
