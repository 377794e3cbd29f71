"""The Live servers page's call form labels each field with its name and its schema's type.
Both are server text: a label is Markdown (links and images drawn as icons), so a property whose
``type`` was ``![t](https://…)`` made the browser load that image from the server's host of choice
as soon as the form showed, and ``[docs](https://…)`` was a link. The type word is shown literally."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

IMAGE = "![t](https://evil.example/t.png)"
LINK = "[docs](https://evil.example/x)"


def _form(image: str, link: str) -> None:
    from toolsearch.ui import schema_form

    schema_form.render("t", {"type": "object", "properties": {
        "picture": {"type": image}, "site": {"type": [link, "null"]}, "plain": {"type": "object"}}}, {})


def test_a_schema_type_in_a_field_label_is_literal_text():
    at = AppTest.from_function(_form, default_timeout=60, args=(IMAGE, LINK))
    at.run()
    assert not at.exception, at.exception
    labels = [area.label for area in at.text_area]
    assert len(labels) == 3, labels
    picture, site, plain = labels
    for label, written in ((picture, IMAGE), (site, LINK)):
        outside = re.sub(r"(`+).+?\1", " ", label)  # a code span's text is never a link or an image
        assert "](" not in outside and "[" not in outside.replace("\\[", ""), label
        assert f"`{written}`" in label, label  # the type word as written, in monospace
    assert plain == "plain (object) · JSON"
