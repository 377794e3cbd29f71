"""The Live servers page's call form takes a number parameter whatever bounds its schema gives.

Streamlit's number input refuses an integer bound past JavaScript's safe integers and a bound no
float holds: a server whose schema carried int64's ``9223372036854775807`` (as generated schemas
do), ``1e300`` for an integer or a 400-digit number ended the form with an exception. Such a bound
is left out of the input (the call's schema check still applies it); others are kept.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

PROPERTIES = {
    "int64": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807},
    "huge": {"type": "integer", "minimum": 1e300},
    "digits": {"type": "number", "maximum": int("9" * 400)},
    "small": {"type": "integer", "minimum": 1, "maximum": 9007199254740991},
}


def _form(properties: dict) -> None:
    from toolsearch.ui import schema_form

    schema_form.render("t", {"type": "object", "properties": properties}, {})


def test_bounds_the_number_input_cannot_hold_are_left_out() -> None:
    at = AppTest.from_function(_form, args=(PROPERTIES,), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    bounds = {n.key.split("::")[-1]: (n.min, n.max) for n in at.number_input}
    assert bounds == {"int64": (None, None), "huge": (None, None), "digits": (None, None),
                      "small": (1, 9007199254740991)}
