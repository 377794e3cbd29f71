"""The bridge tools' behavior: ``tool_search``, ``tool_describe``, ``tool_call`` (docs/reference.md §6–§9, §11).

Each handler takes the raw arguments object the model would send and returns the response object
(a dict); :func:`to_wire` serializes it exactly as the reference does (non-ASCII kept, default
separators). For a file catalog, a valid ``tool_call`` returns what would be dispatched; live
dispatch plugs in through :attr:`Bridge.dispatcher`.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from . import constants as C
from .config import ToolSearchConfig, parse_int
from .plan import is_deferrable, split_tools
from .profile import Profile, default_profile
from .readers import load_embedded_json
from .registration import RegisteredTool
from .search import SearchIndex, SearchOptions, doc_for

#: Seconds one schema ``pattern`` (or ``patternProperties`` key) may take on one value while a
#: tool_call is validated locally. The pattern is the catalog's (a server's) text: ``^(a+)+$``
#: against 40 ``a`` and a ``!`` backtracks for ever under Python's ``re``; past this time, or for a
#: pattern whose repeat counts would unroll too far, the call is not validated (fail open).
SCHEMA_PATTERN_TIMEOUT = 1.0
#: Keywords one validation of a tool_call (or of a live result against its output schema) may
#: evaluate. A schema is the catalog's (a server's) text too: ``anyOf`` of ten ``$ref`` nine levels
#: deep is 2.5 KB and takes 10**9 evaluations, for ever; the sample catalogs' schemas take a few
#: hundred. Past it, the call is not validated (fail open), as past :data:`SCHEMA_PATTERN_TIMEOUT`.
SCHEMA_VALIDATION_MAX_STEPS = 50_000
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_WS = re.compile(r"\s+")
CONNECTOR_PREFIX = "connectors__"


#: Schema patterns that timed out (a check runs the same pattern again and again: once per keyword
#: that matches it, once per check of the same call).
_SLOW_PATTERNS: set[str] = set()


class SchemaPatternError(ValueError):
    """A schema pattern that cannot be matched within :data:`SCHEMA_PATTERN_TIMEOUT`, or a
    validation that would evaluate more than :data:`SCHEMA_VALIDATION_MAX_STEPS` keywords."""


def _schema_search(pattern: str, text: str) -> bool:
    """``re.search(pattern, text)`` as jsonschema runs it, with the ``regex`` package's timeout;
    a pattern whose ``{m}`` repeat counts multiply past
    :data:`~toolsearch.engine.search.REGEX_MAX_REPEAT_PRODUCT` (unrolled while compiling, before any
    timeout) is not run. Raises :class:`SchemaPatternError` for either."""
    import regex  # noqa: PLC0415

    from .search import REGEX_MAX_REPEAT_PRODUCT, _REPEAT_COUNT  # noqa: PLC0415

    if pattern in _SLOW_PATTERNS:  # timed out before in this process: not run again
        raise SchemaPatternError(f"the pattern took over {SCHEMA_PATTERN_TIMEOUT:g} s")
    product = 1
    for count in _REPEAT_COUNT.findall(pattern):
        product *= max(1, int(count))
        if product > REGEX_MAX_REPEAT_PRODUCT:
            raise SchemaPatternError("the pattern repeats too often to compile safely")
    try:
        return regex.search(pattern, text, timeout=SCHEMA_PATTERN_TIMEOUT) is not None
    except TimeoutError:
        if len(_SLOW_PATTERNS) < 256:
            _SLOW_PATTERNS.add(pattern)
        raise SchemaPatternError(f"the pattern took over {SCHEMA_PATTERN_TIMEOUT:g} s") from None


def _bounded_validator(validator_cls: Any) -> Any:
    """``validator_cls`` with ``pattern`` and ``patternProperties`` matched by :func:`_schema_search`."""
    import jsonschema  # noqa: PLC0415
    from jsonschema.exceptions import ValidationError  # noqa: PLC0415

    def pattern(validator: Any, patrn: Any, instance: Any, schema: Any) -> Any:
        if validator.is_type(instance, "string") and not _schema_search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Any:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in patterns.items():
            for key, value in instance.items():
                if _schema_search(patrn, key):
                    yield from validator.descend(value, subschema, path=key, schema_path=patrn)

    original_additional = validator_cls.VALIDATORS.get("additionalProperties")
    original_unevaluated = validator_cls.VALIDATORS.get("unevaluatedProperties")

    def additional_properties(validator: Any, extra_schema: Any, instance: Any, schema: Any) -> Any:
        patterns = schema.get("patternProperties") if isinstance(schema, Mapping) else None
        if not (patterns and isinstance(patterns, Mapping) and validator.is_type(instance, "object")):
            if original_additional is not None:
                yield from original_additional(validator, extra_schema, instance, schema)
            return
        known = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        extras = [key for key in instance
                  if key not in known and not any(_schema_search(patrn, key) for patrn in patterns)]
        if validator.is_type(extra_schema, "object"):
            for key in extras:
                yield from validator.descend(instance[key], extra_schema, path=key)
        elif not extra_schema and extras:
            shown = ", ".join(repr(key) for key in sorted(extras))
            yield ValidationError(f"{shown} {'does' if len(extras) == 1 else 'do'} not match any of the regexes: "
                                  + ", ".join(repr(patrn) for patrn in sorted(patterns)))

    def unevaluated_properties(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Any:
        if "patternProperties" in json.dumps(schema, default=str):  # matched with re inside jsonschema
            raise SchemaPatternError("unevaluatedProperties beside patternProperties is not run")
        if original_unevaluated is not None:
            yield from original_unevaluated(validator, unevaluated, instance, schema)

    keywords = {"pattern": pattern, "patternProperties": pattern_properties,
                "additionalProperties": additional_properties}
    if original_unevaluated is not None:
        keywords["unevaluatedProperties"] = unevaluated_properties
    # Every keyword counts against one budget per validation (the outermost iter_errors; ``not``,
    # ``if`` and ``contains`` validate again inside it): combinators over $ref multiply.
    budget = {"steps": 0, "active": False}

    def counted(keyword: Any) -> Any:
        def run(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            budget["steps"] += 1
            if budget["steps"] > SCHEMA_VALIDATION_MAX_STEPS:
                raise SchemaPatternError(f"the validation took over {SCHEMA_VALIDATION_MAX_STEPS:,} steps")
            return keyword(validator, value, instance, schema)
        return run

    merged = {**validator_cls.VALIDATORS, **keywords}
    extended = jsonschema.validators.extend(validator_cls, {k: counted(fn) for k, fn in merged.items()})
    iter_errors = extended.iter_errors

    def bounded_iter_errors(self: Any, instance: Any, *args: Any, **kwargs: Any) -> Any:
        outermost = not budget["active"]
        if outermost:
            budget["steps"], budget["active"] = 0, True
        try:
            yield from iter_errors(self, instance, *args, **kwargs)
        finally:
            if outermost:
                budget["active"] = False

    extended.iter_errors = bounded_iter_errors
    return extended


def to_wire(response: Mapping[str, Any]) -> str:
    """Serialize a bridge response as the reference does: ``json.dumps(ensure_ascii=False)``."""
    return json.dumps(response, ensure_ascii=False)


def clean_string_list(value: Any, dedupe: bool) -> list[str] | None:
    """docs/reference.md §6 "A single string is accepted": a bare string becomes one item; each item is
    ``str(item or "")`` trimmed, blanks dropped; ``names`` are de-duplicated (first kept).

    Returns ``None`` when ``value`` is neither a list nor a string.
    """
    if isinstance(value, str):
        items: list[Any] = [value]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return None
    cleaned = [str(item or "").strip() for item in items]
    cleaned = [c for c in cleaned if c]
    return list(dict.fromkeys(cleaned)) if dedupe else cleaned


def clip_description(text: str) -> str:
    """docs/reference.md §7.6: at most 500 characters, plus ``…`` when cut."""
    limit = C.SEARCH_DESCRIPTION_MAX_CHARS
    return text if len(text) <= limit else text[:limit] + C.ELLIPSIS


def required_of(parameters: Any) -> list[str]:
    """docs/reference.md §7.6 ``required``: strings only, each cut to 64 characters, at most 32; else ``[]``."""
    required = parameters.get("required") if isinstance(parameters, Mapping) else None
    if not isinstance(required, list):
        return []
    out = [r[: C.REQUIRED_ENTRY_MAX_CHARS] for r in required if isinstance(r, str)]
    return out[: C.REQUIRED_MAX_ENTRIES]


def json_path(parts: Sequence[Any]) -> str:
    """docs/reference.md §9.3 path: ``arguments`` then ``.key``, ``[i]`` or ``["quoted key"]``."""
    out = "arguments"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.match(str(part)):
            out += f".{part}"
        else:
            out += f"[{json.dumps(str(part), ensure_ascii=False)}]"
    return out


_LITERAL_KEYS = ("const", "default", "enum", "example", "examples")


def schema_for_validation(node: Any) -> Any:
    """docs/reference.md §9.3 "turns into an allowed null": ``nullable: true`` adds a ``"null"`` type
    (or wraps a typeless node as ``anyOf[node, {"type": "null"}]``); literal-valued keywords are copied untouched."""
    if isinstance(node, list):
        return [schema_for_validation(x) for x in node]
    if not isinstance(node, Mapping):
        return node
    out = {k: (copy.deepcopy(v) if k in _LITERAL_KEYS else schema_for_validation(v)) for k, v in node.items()}
    if out.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"] if kind != "null" else kind
        elif isinstance(kind, list):
            if "null" not in kind:
                out["type"] = [*kind, "null"]
        else:
            return {"anyOf": [out, {"type": "null"}]}
    return out


def has_remote_ref(node: Any) -> bool:
    """True when any ``$ref`` does not start with ``#`` (docs/reference.md §9.3 "remote `$ref`s skip validation")."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            return True
        return any(has_remote_ref(v) for k, v in node.items() if k not in _LITERAL_KEYS)
    if isinstance(node, list):
        return any(has_remote_ref(v) for v in node)
    return False


def _types_of(schema: Any) -> set[str]:
    if not isinstance(schema, Mapping):
        return set()
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key) or []:
            found |= _types_of(branch)
    return found


def coerce_arguments(arguments: Mapping[str, Any], parameters: Any) -> dict[str, Any]:
    """docs/reference.md §9.3 "the arguments are coerced": schema-guided coercion of a copy of the top-level arguments.

    Strings become integers, numbers or booleans where the property's type asks for one;
    ``""``/``"{}"`` become ``{}`` for an object without required sub-fields; JSON text becomes an
    object or array where one is expected; ``"null"`` becomes ``None`` for nullable fields.
    Values that do not convert are left as they are (validation reports them).
    """
    result = copy.deepcopy(dict(arguments))
    props = parameters.get("properties") if isinstance(parameters, Mapping) else None
    if not isinstance(props, Mapping):
        return result
    for key, value in list(result.items()):
        schema = props.get(key)
        if not isinstance(value, str) or not isinstance(schema, Mapping):
            continue
        types = _types_of(schema)
        text = value.strip()
        if text == "null" and (schema.get("nullable") is True or "null" in types):
            result[key] = None
        elif "integer" in types and re.fullmatch(r"[-+]?\d+", text):
            result[key] = int(text)
        elif "number" in types and re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
            number = float(text)
            result[key] = int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
        elif "boolean" in types and text.lower() in ("true", "false"):
            result[key] = text.lower() == "true"
        elif "object" in types and text in ("", "{}") and not schema.get("required"):
            result[key] = {}
        elif ("object" in types or "array" in types) and text[:1] in "{[":
            try:
                parsed = load_embedded_json(text)
            except ValueError:
                continue
            if isinstance(parsed, dict) and "object" in types or isinstance(parsed, list) and "array" in types:
                result[key] = parsed
    return result


_PLACEHOLDERS: dict[str, Any] = {"string": "", "integer": 0, "number": 0, "boolean": False,
                                  "array": [], "object": {}, "null": None}


def example_arguments(parameters: Any) -> dict[str, Any]:
    """A starting ``arguments`` object for ``tool_call``: one entry per *required* property.

    Each value is the property's ``const``, else its first ``enum`` value, else a placeholder
    for its (first) type: ``""`` for string, ``0`` for integer/number, ``False``, ``[]``, ``{}``
    or ``None`` (numbers raised to a ``minimum``/``exclusiveMinimum``); a property without a
    usable type gets ``""``. Only the top level is filled,
    in the ``required`` order, so the result may still fail validation (a ``minLength``, a
    nested required field): it is a template to edit, not a valid call. Non-object schemas
    give ``{}``.
    """
    if not isinstance(parameters, Mapping):
        return {}
    props = parameters.get("properties") if isinstance(parameters.get("properties"), Mapping) else {}
    out: dict[str, Any] = {}
    for name in required_of(parameters):
        schema = props.get(name)
        schema = schema if isinstance(schema, Mapping) else {}
        if "const" in schema:
            out[name] = copy.deepcopy(schema["const"])
        elif isinstance(schema.get("enum"), list) and schema["enum"]:
            out[name] = copy.deepcopy(schema["enum"][0])
        else:
            # Several types (``["integer", "null"]``, ``anyOf``): the first non-null one in
            # _PLACEHOLDERS order, so the result does not depend on set iteration order.
            types = _types_of(schema)
            kind = next((k for k in _PLACEHOLDERS if k in types and k != "null"), "string")
            value = copy.deepcopy(_PLACEHOLDERS[kind])
            if kind in ("integer", "number"):
                # Respect a lower bound so the template does not fail on it (e.g. minimum: 1).
                low = schema.get("minimum")
                if isinstance(low, (int, float)) and not isinstance(low, bool) and low > value:
                    value = int(low) if kind == "integer" else low
                low = schema.get("exclusiveMinimum")
                if isinstance(low, (int, float)) and not isinstance(low, bool) and low >= value:
                    value = int(low) + 1 if kind == "integer" else low + 1
            out[name] = value
    return out


@dataclass(frozen=True)
class CallCheck:
    """The outcome of local validation for one ``tool_call`` entry.

    Attributes:
        error: the error response (dict) when the call must not run, else ``None``.
        tool: the resolved deferred tool, when found.
        arguments: the coerced arguments (model-side names) that would be sent.
        validated: False when validation was skipped (fail-open cases) with ``skipped`` saying why.
    """

    error: dict[str, Any] | None
    tool: RegisteredTool | None
    arguments: dict[str, Any]
    validated: bool = False
    skipped: str | None = None


class Bridge:
    """The three bridge tools over one session's tools.

    Args:
        session_tools: the session's pre-assembly tool list (registered tools in order).
        config: effective settings (defer set, search limits).
        profile: wording for hints and errors.
        registry_tools: extra tools the harness registry knows that are *not* in this session
            (for the reference's "not available in this session" / not_found distinctions).
        options: search variant switches (defaults are the reference).
        shared_index: an index over the same deferred tools whose statistics this bridge's index
            may share (:class:`SearchIndex` ``shared``); used only when the documents and their
            tokenizing options are the same, so results never change.
    """

    def __init__(self, session_tools: Sequence[RegisteredTool], config: ToolSearchConfig | None = None,
                 profile: Profile | None = None, registry_tools: Sequence[RegisteredTool] = (),
                 options: SearchOptions = SearchOptions(), shared_index: SearchIndex | None = None) -> None:
        self.config = config or ToolSearchConfig()
        self.profile = profile or default_profile()
        self.session_tools = list(session_tools)
        self.visible, self.deferred = split_tools(self.session_tools, self.config.defer)
        self.deferred_by_name = {t.name: t for t in self.deferred}
        self.registry = {t.name: t for t in [*registry_tools, *self.session_tools]}
        self.session_names = {t.name for t in self.session_tools}
        if shared_index is not None and shared_index.names == [t.name for t in self.deferred]:
            docs = shared_index.docs  # the same deferred tools: the same documents
        else:
            docs = [doc_for(t.name, "" if t.toolset is None else t.label, t.description, t.parameters)
                    for t in self.deferred]
        self.index = SearchIndex(docs, options, shared=shared_index)
        self.dispatcher: Callable[[RegisteredTool, dict[str, Any]], Any] | None = None

    # -- helpers ----------------------------------------------------------------------------
    def _error(self, key: str, **values: Any) -> dict[str, Any]:
        return {"error": self.profile.text("errors", key, **values)}

    def _not_deferrable_key(self, name: str) -> str:
        """docs/reference.md §8, §11: a registered direct tool outside this session's surface gets the
        "not available in this session, do not retry" wording, else "call it directly". An empty
        session tool list counts as no list (the reference tests the list's truthiness), so every
        registered direct tool is then "call it directly"."""
        if not self.session_names or name in self.session_names:
            return "not_deferrable"
        return "not_in_session"

    def available_sources(self) -> list[dict[str, Any]]:
        """``[{"name": label, "tool_count": n}]`` over the deferred catalog, sorted by name (docs/reference.md §7.6)."""
        counts: dict[str, int] = {}
        for tool in self.deferred:
            counts[tool.label] = counts.get(tool.label, 0) + 1
        return [{"name": name, "tool_count": counts[name]} for name in sorted(counts)]

    def resolve_limit(self, value: Any) -> int:
        """docs/reference.md §6 ``limit``: absent/null → default; else int-parsed (fallback default), clamped to [1, max]."""
        default = self.config.search_default_limit
        if value is None:
            return default
        return max(1, min(self.config.max_search_limit, parse_int(value, default)))

    # -- tool_search --------------------------------------------------------------------------
    def tool_search(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """docs/reference.md §6–§7: run each query, group names per query, share one ``tools`` map.

        Errors (missing/empty queries, more than 7) come back as ``{"error": ...}``.
        """
        arguments = arguments if isinstance(arguments, Mapping) else {}
        queries = clean_string_list(arguments.get("queries"), dedupe=False)
        if queries is None:
            return self._error("queries_required")
        if not queries:
            return self._error("queries_empty")
        if len(queries) > C.MAX_QUERIES_PER_CALL:
            error = self._error("too_many_queries", count=len(queries), max=C.MAX_QUERIES_PER_CALL)
            error["error"] += " " + self.profile.text("hints", "too_many_queries")
            return error
        limit = self.resolve_limit(arguments.get("limit"))
        results = []
        records: dict[str, dict[str, Any]] = {}
        sources = None
        for query in queries:
            names = [name for name, _ in self.index.search(query, limit)]
            group: dict[str, Any] = {"query": query, "matches": names}
            if not names:
                sources = sources if sources is not None else self.available_sources()
                if sources:
                    group["available_sources"] = sources
                    group["hint"] = self.profile.text("hints", "search_empty")
            results.append(group)
            for name in names:
                if name not in records:
                    tool = self.deferred_by_name[name]
                    records[name] = {"source": tool.source, "source_name": tool.source_name,
                                     "description": clip_description(tool.description),
                                     "required": required_of(tool.parameters)}
        return {"queries": queries, "total_available": len(self.deferred), "results": results, "tools": records}

    # -- tool_describe ----------------------------------------------------------------------
    def tool_describe(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """docs/reference.md §8: full description and raw parameters per deferred name; misses in ``not_found``
        (with a hint); registered direct tools in ``errors``. One bad name never fails the batch."""
        arguments = arguments if isinstance(arguments, Mapping) else {}
        names = clean_string_list(arguments.get("names"), dedupe=True)
        if names is None:
            return self._error("names_required")
        if not names:
            return self._error("names_empty")
        if len(names) > C.MAX_DESCRIBE_NAMES_PER_CALL:
            error = self._error("too_many_names", count=len(names), max=C.MAX_DESCRIBE_NAMES_PER_CALL)
            error["error"] += " " + self.profile.text("hints", "too_many_names")
            return error
        tools: dict[str, Any] = {}
        not_found: list[str] = []
        errors: dict[str, str] = {}
        defer = set(self.config.defer)
        for name in names:
            tool = self.deferred_by_name.get(name)
            if tool is not None:
                tools[name] = {"description": tool.description, "parameters": tool.definition["function"].get("parameters") or {}}
                continue
            registered = self.registry.get(name)
            if registered is not None and name not in C.BRIDGE_NAMES and not _deferrable(registered, defer):
                errors[name] = self.profile.text("errors", self._not_deferrable_key(name), name=name)
            else:
                not_found.append(name)
        response: dict[str, Any] = {"tools": tools}
        if not_found:
            response["not_found"] = not_found
            response["hint"] = self.profile.text("hints", "describe_not_found")
        if errors:
            response["errors"] = errors
        return response

    # -- tool_call ----------------------------------------------------------------------------
    def normalize_calls(self, arguments: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]] | dict[str, Any]:
        """docs/reference.md §9.1 envelope normalization: a list of ``(name, arguments)`` or an error dict."""
        arguments = arguments if isinstance(arguments, Mapping) else {}
        calls = arguments.get("calls")
        if calls is None:
            name = arguments.get("name")
            if not isinstance(name, str) or not name.strip():
                return self._error("call_requires_calls")
            calls = [{"name": name, "arguments": arguments.get("arguments")}]
        if isinstance(calls, str):
            try:
                calls = load_embedded_json(calls)
            except ValueError as exc:
                return self._error("calls_invalid_json", detail=str(exc))
        if isinstance(calls, Mapping):
            calls = [calls]
        if not isinstance(calls, list) or not calls:
            return self._error("calls_not_array")
        entries = []
        for index, entry in enumerate(calls):
            if not isinstance(entry, Mapping):
                return self._error("call_entry_not_object", index=index)
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                return self._error("call_entry_no_name", index=index)
            name = name.strip()
            if name in C.BRIDGE_NAMES:
                return self._error("call_bridge_name", name=name)
            args = entry.get("arguments")
            if args is None or (isinstance(args, str) and not args.strip()):
                args = {}
            elif isinstance(args, str):
                try:
                    args = load_embedded_json(args)
                except ValueError as exc:
                    return self._error("call_arguments_invalid_json", index=index, detail=str(exc))
            if not isinstance(args, Mapping):
                return self._error("call_arguments_not_object", index=index)
            entries.append((name, dict(args)))
        return entries

    def check_call(self, arguments: Mapping[str, Any]) -> CallCheck:
        """docs/reference.md §9.1–§9.3: normalize, resolve and validate one ``tool_call`` without dispatching."""
        entries = self.normalize_calls(arguments)
        if isinstance(entries, dict):
            return CallCheck(entries, None, {})
        if len(entries) > 1:
            if any(not name.startswith(CONNECTOR_PREFIX) for name, _ in entries):
                first_name, first_args = entries[0]
                echoed = json.dumps(first_args, ensure_ascii=False, separators=(",", ":"))
                args_text = echoed if len(echoed) <= C.MULTI_CALL_ECHO_MAX_CHARS else "{...}"
                retry = '{"calls":[{"name":' + json.dumps(first_name, ensure_ascii=False) + ',"arguments":' + args_text + "}]}"
                return CallCheck(self._error("multi_local", count=len(entries), retry=retry, rest=len(entries) - 1), None, {})
            return CallCheck(self._error("connectors_unavailable"), None, {})
        name, args = entries[0]
        if name.startswith(CONNECTOR_PREFIX):
            return CallCheck(self._error("connectors_unavailable"), None, {})
        registered = self.registry.get(name)
        if registered is None:
            suffix = "__" + name
            candidates = sorted(n for n in self.registry if n.endswith(suffix))
            message = self.profile.text("errors", "unknown_tool", name=name) + " "
            if candidates:
                message += self.profile.text("errors", "did_you_mean", candidates=", ".join(f"'{c}'" for c in candidates))
            else:
                message += self.profile.text("errors", "use_search")
            return CallCheck({"error": message}, None, {})
        if not _deferrable(registered, set(self.config.defer)):
            return CallCheck(self._error(self._not_deferrable_key(name), name=name), registered, {})
        tool = self.deferred_by_name.get(name)
        if tool is None:
            return CallCheck(self._error("out_of_scope", name=name), registered, {})
        return self._validate(tool, args)

    def _validate(self, tool: RegisteredTool, args: dict[str, Any]) -> CallCheck:
        params = tool.definition["function"].get("parameters")
        if not isinstance(params, Mapping):
            return CallCheck(None, tool, args, False, "the tool has no object schema")
        hint = self.profile.text("hints", "call_validation")
        required = params.get("required") if isinstance(params.get("required"), list) else []
        missing = [r for r in required if isinstance(r, str) and r not in args]
        if missing:
            return CallCheck({
                "error": self.profile.text("errors", "missing_required", name=tool.name, missing=", ".join(missing)),
                "path": "arguments", "constraint": "required", "parameters": params, "hint": hint,
            }, tool, args)
        if has_remote_ref(params):
            return CallCheck(None, tool, args, False, "the schema has a non-local $ref")
        coerced = coerce_arguments(args, params)
        try:
            import jsonschema  # noqa: PLC0415
            from jsonschema.exceptions import best_match  # noqa: PLC0415

            schema = schema_for_validation(params)
            validator_cls = jsonschema.validators.validator_for(schema)
            validator_cls.check_schema(schema)
            error = best_match(_bounded_validator(validator_cls)(schema).iter_errors(coerced))
        except ImportError:
            return CallCheck(None, tool, coerced, False, "jsonschema is not installed")
        except SchemaPatternError as exc:  # a pattern past its timeout, a validation past its steps
            return CallCheck(None, tool, coerced, False, str(exc))
        except Exception as exc:  # noqa: BLE001 - fail open on any validator problem (docs/reference.md §9.3)
            return CallCheck(None, tool, coerced, False, f"the schema could not be used ({type(exc).__name__})")
        if error is None:
            return CallCheck(None, tool, coerced, True)
        detail = _WS.sub(" ", error.message).strip()
        if len(detail) > C.VALIDATION_MESSAGE_MAX_CHARS:
            detail = detail[: C.VALIDATION_MESSAGE_MAX_CHARS - 3] + "..."
        path = json_path(list(error.absolute_path))
        return CallCheck({
            "error": self.profile.text("errors", "validation_failed", name=tool.name, path=path,
                                       constraint=error.validator, detail=detail),
            "path": path, "constraint": error.validator, "parameters": params, "hint": hint,
        }, tool, coerced, True)

    def tool_call(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """docs/reference.md §9: validate, then dispatch as the underlying tool.

        Without a :attr:`dispatcher` (a file catalog), a valid call returns
        ``{"dispatch": {"name", "server", "tool", "arguments"}}``: what would be sent, under the
        real tool's name and the server's own argument names. With one, its result is returned.
        """
        check = self.check_call(arguments)
        if check.error is not None:
            return check.error
        tool = check.tool
        assert tool is not None
        if self.dispatcher is not None:
            return self.dispatcher(tool, check.arguments)
        return {"dispatch": {"name": tool.name, "server": tool.server, "tool": tool.raw_name,
                             "arguments": server_arguments(tool, check.arguments)}}


def _deferrable(tool: RegisteredTool, defer: set[str]) -> bool:
    return is_deferrable(tool, defer)


def server_arguments(tool: RegisteredTool, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Map model-side argument names back to the server's (Stage B renames, docs/reference.md §23.2)."""
    renames = tool.renames or {}
    return {renames.get(k, k): v for k, v in arguments.items()}
