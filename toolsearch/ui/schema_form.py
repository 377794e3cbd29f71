"""An argument form built from a tool's input schema (the Live servers page's Call).

One widget per top-level property of the registered ``parameters`` schema (the names the model
sees): text for strings, number inputs for numbers and integers (with the schema's bounds), a
checkbox or a true/false choice for booleans, a select box for ``enum``, one item per line (or a
multiselect) for arrays of scalars, and a JSON editor for anything else (objects, arrays of
objects, ``anyOf``…). Required fields are marked with ``*``; an empty optional field is left out
of the arguments. Values are converted here; whether they satisfy the schema is decided by the
engine's own ``tool_call`` validation (docs/reference.md §9.3), whose error is shown under the field it names.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

import streamlit as st

from toolsearch.engine.readers import load_typed_json
from toolsearch.ui import common

NOT_SET = "(not set)"
SCALARS = ("string", "integer", "number", "boolean")
#: Most fields the form draws: each is a widget drawn on every rerun of the page (about 10 ms
#: each), so a tool with thousands of parameters took half a minute per rerun. A tool with more
#: has its arguments edited as one JSON object.
MAX_FIELDS = 50


@dataclass(frozen=True)
class Field:
    """One top-level property: ``kind`` is ``string`` | ``integer`` | ``number`` | ``boolean`` |
    ``enum`` | ``array`` (of scalars; ``item`` is the item kind, ``enum`` for a choice) | ``json``."""

    name: str
    schema: Mapping[str, Any]
    required: bool
    kind: str
    item: str | None = None


def _type_of(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"] is still a string field
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


def _enum(schema: Any) -> list[Any] | None:
    values = schema.get("enum") if isinstance(schema, Mapping) else None
    return values if isinstance(values, list) and values else None


def fields_of(parameters: Any) -> list[Field]:
    """The form's fields, in the schema's property order (``[]`` for a schema without properties)."""
    if not isinstance(parameters, Mapping) or not isinstance(parameters.get("properties"), Mapping):
        return []
    required = parameters.get("required") if isinstance(parameters.get("required"), list) else []
    out = []
    for name, schema in parameters["properties"].items():
        schema = schema if isinstance(schema, Mapping) else {}
        kind, item = _type_of(schema), None
        if _enum(schema):
            kind = "enum"
        elif kind == "array":
            items = schema.get("items") if isinstance(schema.get("items"), Mapping) else None
            item = "enum" if items is not None and _enum(items) else (_type_of(items) if items is not None else None)
            if item not in (*SCALARS, "enum"):
                kind, item = "json", None
        elif kind not in SCALARS:
            kind = "json"
        out.append(Field(str(name), schema, name in required, kind, item))
    return out


def _label(value: Any) -> str:
    return common.visible(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _same(value: Any) -> str:
    """One text per JSON value: ``1`` and ``1.0`` differ from ``true`` (Python's ``==`` does not
    tell them apart), and the key order of an object does not count."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def _choices(values: list[Any]) -> tuple[list[Any], list[str]]:
    """An enum's values, each once, and a label for each that no other shares.

    A string is labelled as its text and any other value as JSON, unless two labels would read
    alike (``1`` and ``"1"``, ``null`` and ``"null"``) or one reads as the not-set choice: then every
    value is labelled as JSON, so strings show their quotes. Two alike labels made the second
    choice send the first value (choosing ``"1"`` sent the number 1)."""
    kept, seen = [], set()
    for value in values:
        if _same(value) not in seen:
            seen.add(_same(value))
            kept.append(value)
    labels = [_label(v) for v in kept]
    if len(set(labels)) < len(labels) or NOT_SET in labels:
        labels = [common.visible(json.dumps(v, ensure_ascii=False)) for v in kept]
    if len(set(labels)) < len(labels):  # a string that holds a marker's own text
        labels = [f"{label} · {i + 1}" for i, label in enumerate(labels)]
    return kept, labels


def _label_of(value: Any, values: list[Any]) -> str | None:
    """The label :func:`_choices` gives ``value`` among an enum's ``values``, or ``None``."""
    kept, labels = _choices(values)
    return next((label for v, label in zip(kept, labels) if _same(v) == _same(value)), None)


def widget_key(prefix: str, field: Field) -> str:
    """The Streamlit key of ``field``'s widget (``prefix`` names the tool)."""
    return f"{prefix}::{field.name}"


#: The largest integer bound Streamlit's number input takes (JavaScript's safe integers).
JS_SAFE_INTEGER = 2 ** 53 - 1


def _bounds(schema: Mapping[str, Any], integer: bool) -> tuple[Any, Any]:
    """The number input's bounds from ``schema``. A bound the input cannot hold is left out (the
    schema check of the call still applies it): an integer bound past JavaScript's safe integers,
    such as int64's ``9223372036854775807`` that generated schemas carry, or a number past any
    float; Streamlit refused them and the call form ended with an exception."""
    def number(key: str) -> float | None:
        value = schema.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return None
        try:
            value = float(value)
        except OverflowError:  # an integer past any float
            return None
        return value if math.isfinite(value) else None

    def held(value: Any) -> Any:
        return value if value is None or abs(value) <= JS_SAFE_INTEGER else None

    low, high = number("minimum"), number("maximum")
    ex_low, ex_high = number("exclusiveMinimum"), number("exclusiveMaximum")
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
        if ex_low is not None:
            low = max(low, math.floor(ex_low) + 1) if low is not None else math.floor(ex_low) + 1
        if ex_high is not None:
            high = min(high, math.ceil(ex_high) - 1) if high is not None else math.ceil(ex_high) - 1
        return held(low), held(high)
    return low, high


def _help(field: Field) -> str | None:
    """The property's description and default, as literal text inside the tooltip's markdown."""
    parts = []
    description = field.schema.get("description")
    if isinstance(description, str) and description.strip():
        parts.append(common.md_escape(common.visible(description.strip())[:500]))  # clipped before escaping
    if "default" in field.schema:
        parts.append("default: " + common.md_escape(_label(field.schema["default"])))
    return "  \n".join(parts) or None


def _field_label(field: Field) -> str:
    shown = common.md_escape(common.visible(field.name))
    kind = field.kind
    if field.kind == "array":
        kind = f"array of {field.item if field.item != 'enum' else 'choices'}"
    elif field.kind == "json":  # the schema's own type word is server text, like the name
        kind = common.md_escape(common.visible(_type_of(field.schema) or "any JSON value"))
    return f"{shown}{' *' if field.required else ''} ({kind})"


def render(prefix: str, parameters: Any, errors: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """Draw the form and read it.

    Args:
        prefix: a key prefix unique to the tool (widget keys are ``prefix::name``).
        parameters: the registered parameters schema.
        errors: messages to show under fields, by field name.

    Returns:
        ``(arguments, problems)``: the arguments the filled fields make (empty optional fields
        left out) and conversion problems by field name (bad JSON, a bad array item).
    """
    arguments: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for field in fields_of(parameters):
        key, label, help_text = widget_key(prefix, field), _field_label(field), _help(field)
        schema = field.schema
        if field.kind == "enum":
            values, labels = _choices(_enum(schema) or [])
            options = labels if field.required else [NOT_SET, *labels]
            chosen = st.selectbox(label, options, key=key, help=help_text)
            if chosen != NOT_SET and chosen in options:
                arguments[field.name] = values[options.index(chosen) - (0 if field.required else 1)]
        elif field.kind == "boolean":
            if field.required:
                arguments[field.name] = st.checkbox(label, key=key, help=help_text)
            else:
                chosen = st.selectbox(label, [NOT_SET, "true", "false"], key=key, help=help_text)
                if chosen != NOT_SET:
                    arguments[field.name] = chosen == "true"
        elif field.kind in ("integer", "number"):
            integer = field.kind == "integer"
            low, high = _bounds(schema, integer)
            if low is not None and high is not None and low > high:
                low = high = None  # an impossible range: let the validator say so
            value = st.number_input(label, min_value=low, max_value=high, value=None, key=key, help=help_text,
                                    step=1 if integer else None, format=None if integer else "%g",
                                    placeholder="not sent when empty" if not field.required else "required")
            if value is not None:
                arguments[field.name] = int(value) if integer else float(value)
        elif field.kind == "string":
            text = st.text_input(label, key=key, help=help_text,
                                 placeholder="required" if field.required else "not sent when empty")
            if text:
                arguments[field.name] = text
        elif field.kind == "array" and field.item == "enum":
            values, labels = _choices(_enum(schema.get("items")) or [])
            chosen = st.multiselect(label, labels, key=key, help=help_text, wrap=True)
            if chosen:
                arguments[field.name] = [values[labels.index(c)] for c in chosen]
        elif field.kind == "array":
            text = st.text_area(label + " · one item per line", key=key, help=help_text, height=90,
                                placeholder="not sent when empty")
            if text.strip():
                items, problem = _items(text, field.item or "string")
                if problem:
                    problems[field.name] = problem
                else:
                    arguments[field.name] = items
        else:
            text = st.text_area(label + " · JSON", key=key, help=help_text, height=90,
                                placeholder="JSON value; not sent when empty")
            if text.strip():
                try:
                    arguments[field.name] = load_typed_json(text)
                except ValueError as exc:
                    problems[field.name] = f"not valid JSON ({exc})"
        message = problems.get(field.name) or errors.get(field.name)
        if message:
            st.error(common.md_escape(common.visible(message)), icon=":material/error:")
    return arguments, problems


def _items(text: str, kind: str) -> tuple[list[Any], str | None]:
    """One array item per non-blank line, converted to ``kind``: ``(items, problem)``."""
    items: list[Any] = []
    for number, line in enumerate(text.splitlines(), 1):
        raw = line.strip()
        if not raw:
            continue
        if kind == "string":
            items.append(line.rstrip("\r"))
            continue
        try:
            if kind == "boolean":
                if raw.lower() not in ("true", "false"):
                    raise ValueError
                items.append(raw.lower() == "true")
            elif kind == "integer":
                items.append(int(raw))
            else:
                value = float(raw)
                if not math.isfinite(value):
                    raise ValueError
                items.append(int(value) if value.is_integer() and "." not in raw and "e" not in raw.lower() else value)
        except ValueError:
            return [], f"line {number}: expected {'an' if kind == 'integer' else 'a'} {kind}, got {raw!r}"
    return items, None


def widget_values(prefix: str, parameters: Any, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Widget states that show ``arguments`` in the form (for switching from raw JSON back to the
    form): ``{widget key: value}`` for every field whose value the widget can hold; others are
    cleared."""
    out: dict[str, Any] = {}
    for field in fields_of(parameters):
        key = widget_key(prefix, field)
        present = field.name in arguments
        value = arguments.get(field.name)
        if field.kind == "enum":
            label = _label_of(value, _enum(field.schema) or []) if present else None
            out[key] = label if label is not None else (NOT_SET if not field.required else None)
        elif field.kind == "boolean":
            if field.required:
                out[key] = value is True
            else:
                out[key] = ("true" if value else "false") if isinstance(value, bool) else NOT_SET
        elif field.kind in ("integer", "number"):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            out[key] = (int(value) if field.kind == "integer" and float(value).is_integer() else value) if ok else None
        elif field.kind == "string":
            out[key] = value if isinstance(value, str) else ""
        elif field.kind == "array" and field.item == "enum":
            values = _enum(field.schema.get("items")) or []
            labels = [_label_of(v, values) for v in value] if isinstance(value, list) else []
            out[key] = list(dict.fromkeys(label for label in labels if label is not None))
        elif field.kind == "array":
            out[key] = "\n".join(json.dumps(v) if not isinstance(v, str) else v for v in value) \
                if isinstance(value, list) else ""
        else:
            out[key] = json.dumps(value, ensure_ascii=False, indent=2) if present else ""
    return {k: v for k, v in out.items() if v is not None}


def field_of_path(path: str) -> str | None:
    """The top-level field a validation path names (``arguments.x[0]`` → ``x``,
    ``arguments["max results"]`` → ``max results``), ``None`` for the whole object."""
    if not isinstance(path, str) or not path.startswith("arguments"):
        return None
    rest = path[len("arguments"):]
    if rest.startswith("."):
        name = rest[1:]
        for stop in ".[":
            name = name.split(stop, 1)[0]
        return name or None
    if rest.startswith('["'):
        try:
            decoder = json.JSONDecoder()
            value, _ = decoder.raw_decode(rest[1:])
            return str(value)
        except ValueError:
            return None
    return None
