"""Input-schema normalization: stage A (MCP normalizer) and stage B (global sanitizer).

Implements ``docs/reference.md`` §23:

* Stage A, :func:`normalize_mcp_input_schema`, runs once at registration on a server's
  ``inputSchema``: A0 empty schema, A1 ``definitions`` → ``$defs``, A2 nullable-union collapse,
  A3 const-union → ``enum``, A4 object-shape repair, A5 final guard.
* Stage B, :func:`sanitize_parameters` / :func:`sanitize_tool_definition`, runs on every
  tool-array build: B0 missing parameters, B1 recursive node pass, B2 root forced to an object,
  B3 nullable-union collapse again, B4 root combinators removed, B5 ``default`` beside ``$ref``
  removed.

Both stages are pure and deterministic. Key order is part of the contract (docs/reference.md §23.4): a key
that is replaced keeps its slot, a key that is added goes at the end of its node, and a
collapsed union puts the surviving branch's keys first, then ``nullable``, then the carried
metadata in the fixed order title, description, default, examples.

Every function here accepts any JSON-like value (dicts, lists, strings, numbers, booleans,
``None``) and never raises for one. The one limit: the walks are recursive, so nesting beyond
Python's recursion limit raises ``RecursionError`` (with the default limit of 1000 on CPython
3.11, schemas nest about 250 ``properties`` levels deep without trouble; 300 is too many).
Cyclic structures are not JSON-like; they also end in ``RecursionError``.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Property names the providers accept (docs/reference.md §23.2 B1). Kept here rather than in ``constants``
# because nothing else reads them.
PROPERTY_NAME_PATTERN = r"^[a-zA-Z0-9_.-]{1,64}$"
PROPERTY_NAME_MAX_LENGTH = 64
PROPERTY_NAME_FALLBACK = "param"

_VALID_PROPERTY_NAME = re.compile(r"[a-zA-Z0-9_.-]{1,64}")  # used with fullmatch
_BAD_NAME_CHARACTER = re.compile(r"[^a-zA-Z0-9_.-]")

#: Metadata a collapsed union carries over from the outer node, in this order (docs/reference.md §23.1 A2).
_CARRIED_METADATA = ("title", "description", "default", "examples")
#: Union keywords, in the order they are tried (docs/reference.md §23.1 A2, A3).
_UNION_KEYS = ("anyOf", "oneOf")
#: Keys a pure const branch may have (docs/reference.md §23.1 A3).
_PURE_CONST_BRANCH_KEYS = frozenset({"const", "type", "title", "description"})
#: Maps whose *names* are property names, never renamed by A1 (docs/reference.md §23.1 A1).
_PROPERTY_NAME_MAPS = ("properties", "patternProperties")
#: Maps of name → schema; A4 repairs their values, never the map itself (docs/reference.md §23.1 A4).
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_MAP_SET = frozenset(_SCHEMA_MAPS)
#: Keywords whose value is one schema (B1). ``items`` may also be a list of schemas.
_SCHEMA_CHILDREN = ("items", "additionalProperties", "additionalItems", "unevaluatedItems",
                    "unevaluatedProperties", "not", "if", "then", "else", "contains",
                    "propertyNames", "contentSchema")
#: Keywords whose value is a list of schemas (B1).
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
#: Maps of name → schema whose names B1 keeps (only ``properties`` names are renamed).
_SCHEMA_MAPS_KEPT_NAMES = ("patternProperties", "$defs", "definitions", "dependentSchemas")
# The same keyword groups as sets, for the per-key tests of the walks.
_SCHEMA_CHILD_SET = frozenset(_SCHEMA_CHILDREN)
_SCHEMA_LIST_SET = frozenset(_SCHEMA_LISTS)
_SCHEMA_MAP_KEPT_SET = frozenset(_SCHEMA_MAPS_KEPT_NAMES)
#: Every key B1 treats other than as data.
_B1_KEYS = frozenset({"type", "properties"}) | _SCHEMA_CHILD_SET | _SCHEMA_LIST_SET | _SCHEMA_MAP_KEPT_SET
#: Types a bare string may name (docs/reference.md §23.2 B1).
_BARE_TYPE_NAMES = frozenset({"object", "string", "number", "integer", "boolean", "array", "null"})
#: Removed from the root only (docs/reference.md §23.2 B4).
_ROOT_COMBINATORS = ("allOf", "anyOf", "oneOf", "enum", "not")


# --- Public API ---------------------------------------------------------------------------


def normalize_mcp_input_schema(schema: object) -> dict[str, Any]:
    """Stage A: normalize a server's ``inputSchema`` once, at registration (docs/reference.md §23.1).

    Args:
        schema: any JSON-like value, normally the ``inputSchema`` dict of an MCP tool.
            It is never mutated.

    Returns:
        A new dict. A falsy input (``None``, ``{}``, ``[]``, ``""``, ``0``) and any input
        whose result is not a dict (a list, a string, a boolean schema) give
        ``{"type": "object", "properties": {}}`` (no ``required`` at this stage). Otherwise
        the schema after A1 → A2 → A3 → A4 → A5, sharing no containers with the input.

    Raises:
        Nothing for JSON-like input (see the module docstring for the nesting limit).
    """
    return _normalize(schema, None)


def register_input_schema(schema: object) -> tuple[dict[str, Any], dict[str, Any]]:
    """Stage A then stage B for one MCP tool's ``inputSchema``, as registration needs them
    (docs/reference.md §23.1, §23.2).

    Returns:
        ``(stage_a, parameters)``: :func:`normalize_mcp_input_schema` of ``schema`` and
        :func:`sanitize_parameters` of that. ``parameters`` may share data containers with
        ``stage_a`` (use ``stage_a`` only to read it); neither shares anything with ``schema``.
        The same values as the two public functions, computed with one scan of the input.
    """
    if schema and isinstance(schema, dict):
        try:
            stage_a = _copy_and_repair(schema, is_root=True)  # as in _normalize, without a scan
        except _NeedsAllPasses:
            pass
        else:
            if stage_a.get("type") == "object" and "properties" not in stage_a:  # A5
                stage_a["properties"] = {}
            # No union, $ref or nested type list anywhere: B3 and B5 cannot change anything.
            return stage_a, _sanitize_parameters(stage_a, private=True, found=_Found())
    found = _scan(schema) if schema else None
    stage_a = _normalize(schema, found)
    # A-stage steps never add a union, a $ref or a type list, so the input's scan still holds.
    # B1 keeps data values (const, default, enum...) shared with stage A, and B5 edits dicts in
    # place, so a dict with a $ref in a data position would lose its default in stage A too:
    # with a $ref anywhere, stage B works on a copy.
    found = found or _Found()
    return stage_a, _sanitize_parameters(stage_a, private=not found.ref, found=found)


def _normalize(schema: object, found: "_Found | None") -> dict[str, Any]:
    if not schema:  # A0
        return _empty_object_schema()
    if found is None and isinstance(schema, dict):
        # The common case, a schema with none of the keys A1-A3 act on: copy and repair (A4)
        # in one walk that also checks for those keys, instead of a scan and two walks.
        try:
            result = _copy_and_repair(schema, is_root=True)
        except _NeedsAllPasses:
            pass
        else:
            if result.get("type") == "object" and "properties" not in result:  # A5
                result["properties"] = {}
            return result
    found = found or _scan(schema)
    # A1 rebuilds every dict and list, so later steps work on a private copy. Without a
    # definitions key or a $ref it renames nothing: a plain deep copy is the same, and faster.
    result = _rewrite_definitions(schema) if found.definitions or found.ref else _copy_json(schema)
    if found.unions:  # A2 and A3 only ever act on an anyOf/oneOf node
        result = _strip_nullable_unions(result)  # A2
        result = _collapse_const_unions(result)  # A3
    _repair_object_shape(result, is_root=True)  # A4
    if not isinstance(result, dict):  # A0, second half
        return _empty_object_schema()
    if result.get("type") == "object" and "properties" not in result:  # A5
        result["properties"] = {}
    return result


def sanitize_parameters(parameters: object) -> dict[str, Any]:
    """Stage B: sanitize one tool's ``parameters`` object for the wire (docs/reference.md §23.2).

    Args:
        parameters: any JSON-like value, normally a stage-A result or a built-in tool's
            ``parameters`` dict. It is never mutated.

    Returns:
        A new dict. Not a dict (B0) → ``{"type": "object", "properties": {}, "required": []}``.
        Otherwise the result of B1 → B2 → B3 → B4 → B5. The root is normally an object with
        ``properties`` and ``required``; the one exception is B3 collapsing a root-level
        nullable union (``anyOf: [X, {"type": "null"}]``), where the root becomes ``X`` plus
        ``nullable: true``, exactly as the reference does.

    Raises:
        Nothing for JSON-like input (see the module docstring for the nesting limit).
    """
    return _sanitize_parameters(parameters, private=False)


def _sanitize_parameters(parameters: object, private: bool, found: "_Found | None" = None) -> dict[str, Any]:
    """Stage B with the passes that cannot change anything skipped (same result as all passes).

    ``found``: a scan that is known to cover ``parameters`` (else it is scanned here).
    """
    if not isinstance(parameters, dict):  # B0
        return _empty_parameters()
    found = found or _scan(parameters)
    # B1 rebuilds schema nodes but keeps data values (enum lists, defaults) as they are, and
    # B5 edits in place: copy first unless the caller hands the value over.
    root = _sanitize_node(parameters if private else _copy_json(parameters))  # B1
    _force_object_root(root)  # B2
    if found.unions or found.nested_type_list:
        # B3 collapses only anyOf/oneOf nodes with a null branch; B1 creates anyOf only from a
        # type list, whose branches are null only when an item is itself a list.
        root = _strip_nullable_unions(root)  # B3
    for key in _ROOT_COMBINATORS:  # B4
        root.pop(key, None)
    if found.ref:
        _drop_default_beside_ref(root)  # B5 (only dicts with a $ref change; B1 adds none)
    return root


def property_renames(parameters: object) -> dict[str, str]:
    """Map wire property names back to the original names, top level only (docs/reference.md §23.2 B1).

    Computes the same renames as :func:`sanitize_parameters` does for the root
    ``properties`` map, so a dispatcher can turn the model's arguments back into the
    server's names: ``{renames.get(k, k): v for k, v in arguments.items()}``. Pass the
    schema the tool was registered with (the stage-A result), as the reference does.

    Args:
        parameters: any JSON-like value; only ``parameters["properties"]`` is read, and only
            when both are dicts.

    Returns:
        ``{new_name: original_name}`` for each renamed property, in property order; ``{}``
        when nothing is renamed or there is no ``properties`` map. Nested properties are not
        included.

    Raises:
        Nothing.
    """
    if not isinstance(parameters, dict):
        return {}
    properties = parameters.get("properties")
    if not isinstance(properties, dict):
        return {}
    new_names = _rename_property_keys(list(properties))
    return {new: original for original, new in new_names.items() if new != original}


def sanitize_tool_definition(defn: dict[str, Any]) -> dict[str, Any]:
    """Apply stage B to an OpenAI-style tool definition (docs/reference.md §23.2).

    Args:
        defn: ``{"type": "function", "function": {"name": …, "description": …,
            "parameters": {…}}}``. It is never mutated.

    Returns:
        A deep copy whose ``function.parameters`` is replaced (in its slot) by
        :func:`sanitize_parameters` of it; a missing ``parameters`` is appended as the B0
        empty object. When ``defn`` is not a dict, or its ``function`` is not a dict, there
        is nothing to sanitize and a deep copy of ``defn`` is returned unchanged.

    Raises:
        Nothing for JSON-like input (see the module docstring for the nesting limit).
    """
    result = _copy_json(defn)
    if isinstance(result, dict) and isinstance(result.get("function"), dict):
        function = result["function"]
        function["parameters"] = sanitize_parameters(function.get("parameters"))
    return result


# --- Shared pieces ------------------------------------------------------------------------


class _Found:
    """What :func:`_scan` saw anywhere in a value (schema and data positions alike)."""

    __slots__ = ("unions", "ref", "nested_type_list", "definitions")

    def __init__(self) -> None:
        self.unions = False  # a dict with an anyOf or oneOf key
        self.ref = False  # a dict with a $ref key
        self.definitions = False  # a dict with a definitions key
        self.nested_type_list = False  # a type list with a list among its items


def _scan(value: Any) -> _Found:
    """Which passes can change ``value`` at all (conservative: a "maybe" counts as yes).

    Most real schemas have no unions and no ``$ref``, so the passes that only act on those
    (A2, A3, B3, B5) are skipped for them; each skipped pass would have returned an equal value.
    The check reads the compact JSON text (fast, in C); a key name that also occurs as a string
    value only makes it say yes. Values JSON cannot write are walked instead.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        found = _Found()
        _scan_walk(value, found)
        return found
    found = _Found()
    found.unions = '"anyOf"' in text or '"oneOf"' in text
    found.ref = '"$ref"' in text
    found.definitions = '"definitions"' in text
    found.nested_type_list = '"type":[' in text and ("[[" in text or ",[" in text)
    return found


def _scan_walk(value: Any, found: _Found) -> None:
    """:func:`_scan` by walking (recursive, so a cyclic value ends in ``RecursionError`` as in
    the passes themselves)."""
    if isinstance(value, dict):
        if "anyOf" in value or "oneOf" in value:
            found.unions = True
        if "$ref" in value:
            found.ref = True
        if "definitions" in value:
            found.definitions = True
        kind = value.get("type")
        if isinstance(kind, list) and any(isinstance(item, list) for item in kind):
            found.nested_type_list = True
        for child in value.values():
            _scan_walk(child, found)
    elif isinstance(value, list):
        for child in value:
            _scan_walk(child, found)


def _empty_object_schema() -> dict[str, Any]:
    """Stage A's empty schema (A0)."""
    return {"type": "object", "properties": {}}


def _empty_parameters() -> dict[str, Any]:
    """Stage B's empty schema (B0, and a bare ``"object"`` or unknown string in B1)."""
    return {"type": "object", "properties": {}, "required": []}


def _copy_json(value: Any) -> Any:
    """Copy dicts and lists all the way down; other values are immutable leaves."""
    if isinstance(value, dict):
        return {key: _copy_json(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_copy_json(child) for child in value]
    return value


def _ensure_object_members(node: dict[str, Any]) -> None:
    """Give an object node a dict ``properties`` and a pruned list ``required`` (A4 step 2).

    ``required`` keeps only string entries that name a property, in their order; anything
    that is not a list becomes ``[]``. Replaced keys keep their slot, missing ones are
    appended (``properties`` before ``required``).
    """
    properties = node.get("properties")
    if not isinstance(properties, dict):
        properties = node["properties"] = {}
    required = node.get("required")
    if isinstance(required, list):
        node["required"] = [name for name in required
                            if isinstance(name, str) and name in properties]
    else:
        node["required"] = []


# --- A0-A5 in one walk, for schemas without the keys A1-A3 and B3/B5 act on ----------------


class _NeedsAllPasses(Exception):
    """Raised by :func:`_copy_and_repair` on a value that the shortcut does not cover."""


def _check_shortcut(node: dict[Any, Any]) -> None:
    """Raise :class:`_NeedsAllPasses` if ``node`` has a key that A1-A3, B3 or B5 act on."""
    if "anyOf" in node or "oneOf" in node or "$ref" in node or "definitions" in node:
        raise _NeedsAllPasses
    kind = node.get("type")
    if isinstance(kind, list) and any(isinstance(item, list) for item in kind):
        raise _NeedsAllPasses


def _copy_and_repair(value: Any, is_root: bool = False) -> Any:
    """:func:`_copy_json` then :func:`_repair_object_shape` (A4), in one walk.

    Equal to stage A's A1 (a plain copy without ``definitions`` or ``$ref``), A4, and skipping A2
    and A3 (nothing to collapse without ``anyOf``/``oneOf``). Raises :class:`_NeedsAllPasses` when
    any dict anywhere (schema and data positions alike, as :func:`_scan_walk` checks) has an
    ``anyOf``, ``oneOf``, ``$ref`` or ``definitions`` key or a type list with a list in it.
    A4 repairs a node before walking its children, and a repair only replaces values that hold
    no dict (``type``, ``properties`` when not a dict, ``required``), so repairing after
    copying the children gives the same result.
    """
    if isinstance(value, dict):
        _check_shortcut(value)
        result = {}
        for key, child in value.items():
            if key in _SCHEMA_MAP_SET and isinstance(child, dict):
                _check_shortcut(child)
                result[key] = {name: _copy_and_repair(schema) for name, schema in child.items()}
            else:
                result[key] = _copy_and_repair(child)
        if is_root or "properties" in result or "type" in result:
            if not result.get("type") and ("properties" in result or "required" in result):
                result["type"] = "object"
            if result.get("type") == "object":
                _ensure_object_members(result)
        return result
    if isinstance(value, list):
        return [_copy_and_repair(child) for child in value]
    return value


# --- A1: definitions → $defs --------------------------------------------------------------


def _rewrite_definitions(value: Any, is_property_map: bool = False) -> Any:
    """A1: rename ``definitions`` keys to ``$defs`` and rewrite local ``$ref``s.

    Returns a new container for every dict and list. ``is_property_map`` marks a dict that is
    the value of ``properties`` / ``patternProperties``: its keys are property names, kept
    as they are, and each of its values is walked as a schema.
    """
    if isinstance(value, list):
        return [_rewrite_definitions(item) for item in value]
    if not isinstance(value, dict):
        return value
    if is_property_map:
        return {name: _rewrite_definitions(child) for name, child in value.items()}
    result: dict[Any, Any] = {}
    for key, child in value.items():
        if key == "$defs" and "definitions" in value:
            # Both present: the renamed ``definitions`` value wins, in the first of the two
            # slots. Reserve the slot; the ``definitions`` iteration fills it.
            result.setdefault("$defs", None)
            continue
        if key == "$ref" and isinstance(child, str) and child.startswith("#/definitions/"):
            result[key] = "#/$defs/" + child[len("#/definitions/"):]
            continue
        new_key = "$defs" if key == "definitions" else key
        child_is_map = key in _PROPERTY_NAME_MAPS and isinstance(child, dict)
        result[new_key] = _rewrite_definitions(child, is_property_map=child_is_map)
    return result


# --- A2 / B3: nullable-union collapse -----------------------------------------------------


def _strip_nullable_unions(value: Any) -> Any:
    """A2 / B3: collapse ``anyOf``/``oneOf`` = one schema + null branch(es), bottom-up.

    Walks every dict and list. Children are collapsed first; a collapsed node is checked
    again until it no longer qualifies. Returns new containers along the walked path; the
    input may be reused (callers pass a private copy).
    """
    if isinstance(value, list):
        return [_strip_nullable_unions(item) for item in value]
    if not isinstance(value, dict):
        return value
    node = {key: _strip_nullable_unions(child) for key, child in value.items()}
    while True:
        survivor = _collapse_nullable_union(node)
        if survivor is None:
            return node
        node = survivor


def _is_null_branch(branch: Any) -> bool:
    """A null branch: a dict whose ``type`` is the string ``"null"`` (other keys ignored)."""
    return isinstance(branch, dict) and branch.get("type") == "null"


def _collapse_nullable_union(node: dict[str, Any]) -> dict[str, Any] | None:
    """The replacement for ``node`` if its first qualifying union collapses, else ``None``.

    Qualifies: a list with at least one null branch and exactly one other branch. The
    replacement is a shallow copy of that branch (``{}`` if it is not a dict), then
    ``nullable: true`` unless the branch has ``nullable``, then the outer metadata the branch
    lacks (``default`` not beside ``$ref``). Every other outer key is dropped.
    """
    for key in _UNION_KEYS:
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        others = [branch for branch in branches if not _is_null_branch(branch)]
        if len(others) == len(branches) or len(others) != 1:
            continue
        survivor = others[0]
        result = dict(survivor) if isinstance(survivor, dict) else {}
        result.setdefault("nullable", True)
        for meta in _CARRIED_METADATA:
            if meta not in node or meta in result:
                continue
            if meta == "default" and "$ref" in result:
                continue
            result[meta] = node[meta]
        return result
    return None


# --- A3: const-union → enum ---------------------------------------------------------------


def _collapse_const_unions(value: Any) -> Any:
    """A3: replace ``anyOf``/``oneOf`` of pure const branches by ``type`` + ``enum``, bottom-up.

    The replacement is not walked again.
    """
    if isinstance(value, list):
        return [_collapse_const_unions(item) for item in value]
    if not isinstance(value, dict):
        return value
    node = {key: _collapse_const_unions(child) for key, child in value.items()}
    for key in _UNION_KEYS:
        replacement = _const_union_as_enum(node, node.get(key))
        if replacement is not None:
            return replacement
    return node


def _json_primitive_type(value: Any) -> str | None:
    """The JSON type of a const, from its exact Python type; ``None`` if it cannot merge."""
    # Exact type checks: bool is a subclass of int but must never merge with integers.
    if type(value) is bool:
        return "boolean"
    if type(value) is int:
        return "integer"
    if type(value) is float:
        return "number"
    if type(value) is str:
        return "string"
    return None


def _const_union_as_enum(node: dict[str, Any], branches: Any) -> dict[str, Any] | None:
    """The ``type``/``enum`` replacement for ``node`` if ``branches`` qualifies, else ``None``.

    Qualifies: a non-empty list with at most one null branch (``type: "null"``, no
    ``const``), every other branch a pure const branch, at least one const, all consts of
    one primitive type, and each branch's own ``type`` (if any) equal to it.
    """
    if not isinstance(branches, list) or not branches:
        return None
    null_branches = 0
    consts: list[Any] = []
    types: set[str] = set()
    for branch in branches:
        if not isinstance(branch, dict):
            return None
        if branch.get("type") == "null" and "const" not in branch:
            null_branches += 1
            continue
        if "const" not in branch or any(k not in _PURE_CONST_BRANCH_KEYS for k in branch):
            return None
        const_type = _json_primitive_type(branch["const"])
        if const_type is None:
            return None
        if "type" in branch and branch["type"] != const_type:
            return None
        consts.append(branch["const"])
        types.add(const_type)
    if null_branches > 1 or len(types) != 1:
        return None
    result: dict[str, Any] = {"type": types.pop(), "enum": consts}
    if null_branches:
        result["nullable"] = True
    for meta in _CARRIED_METADATA:
        if meta in node:
            result[meta] = node[meta]
    return result


# --- A4: object-shape repair --------------------------------------------------------------


def _repair_object_shape(value: Any, is_root: bool = False) -> None:
    """A4, in place: repair object nodes; leave constraint fragments alone.

    A dict is repaired when it is the root, has ``properties`` or has ``type``. The values
    of schema maps are walked as schemas; the maps themselves never are.
    """
    if isinstance(value, list):
        for item in value:
            _repair_object_shape(item)
        return
    if not isinstance(value, dict):
        return
    if is_root or "properties" in value or "type" in value:
        if not value.get("type") and ("properties" in value or "required" in value):
            value["type"] = "object"
        if value.get("type") == "object":
            _ensure_object_members(value)
    for key, child in value.items():
        if key in _SCHEMA_MAPS and isinstance(child, dict):
            for schema in child.values():
                _repair_object_shape(schema)
        else:
            _repair_object_shape(child)


# --- B1: recursive node pass --------------------------------------------------------------


def _bare_string_schema(name: str) -> dict[str, Any]:
    """B1: a bare type name where a schema is expected; anything else is the empty object."""
    if name in _BARE_TYPE_NAMES and name != "object":
        return {"type": name}
    return _empty_parameters()


def _sanitize_schema(value: Any) -> Any:
    """B1 for a value in a schema position: strings expanded, dicts sanitized, rest kept."""
    if isinstance(value, str):
        return _bare_string_schema(value)
    if isinstance(value, dict):
        return _sanitize_node(value)
    return value  # boolean schemas (and anything else) stay as they are


def _clean_property_name(name: Any) -> str:
    """Each code point outside ``[a-zA-Z0-9_.-]`` → ``_``, cut to 64, empty → ``param``."""
    cleaned = _BAD_NAME_CHARACTER.sub("_", str(name))[:PROPERTY_NAME_MAX_LENGTH]
    return cleaned or PROPERTY_NAME_FALLBACK


def _is_valid_property_name(name: Any) -> bool:
    if type(name) is not str:
        return isinstance(name, str) and _VALID_PROPERTY_NAME.fullmatch(name) is not None
    # Property names repeat across a catalog's tools; remember the answer per name.
    valid = _VALID_NAMES.get(name)
    if valid is None:
        valid = _VALID_NAMES[name] = _VALID_PROPERTY_NAME.fullmatch(name) is not None
        if len(_VALID_NAMES) > 100_000:  # bound the memory a hostile catalog could take
            _VALID_NAMES.clear()
    return valid


_VALID_NAMES: dict[str, bool] = {}


def _rename_property_keys(names: list[Any]) -> dict[Any, str]:
    """Map each property name to its wire name, in order (docs/reference.md §23.2 B1).

    Valid names keep themselves and are all reserved first. Invalid names are cleaned in
    insertion order; a clash with a reserved or earlier name gets ``_2``, ``_3``, … with the
    base shortened so the result stays within 64 code points.
    """
    valid = [_is_valid_property_name(name) for name in names]
    if all(valid):  # the usual case: nothing to rename
        return {name: name for name in names}
    taken = {name for name, ok in zip(names, valid) if ok}
    result: dict[Any, str] = {}
    for name, ok in zip(names, valid):
        if ok:
            result[name] = name
            continue
        base = _clean_property_name(name)
        candidate = base
        counter = 2
        while candidate in taken:
            suffix = f"_{counter}"
            candidate = base[:PROPERTY_NAME_MAX_LENGTH - len(suffix)] + suffix
            counter += 1
        taken.add(candidate)
        result[name] = candidate
    return result


def _sanitize_properties(
        properties: dict[Any, Any]) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """B1 for a ``properties`` map.

    Returns the renamed and sanitized map, ``{original: new}`` for renamed names, and the
    (new) names whose schema carried a draft-3 ``required: true``. A boolean ``required`` is
    removed from the property schema before that schema is sanitized.
    """
    new_names = _rename_property_keys(list(properties))
    result: dict[str, Any] = {}
    renames: dict[str, str] = {}
    flagged_required: list[str] = []
    for original, schema in properties.items():
        name = new_names[original]
        if name != original:
            renames[original] = name
        if isinstance(schema, dict) and isinstance(schema.get("required"), bool):
            if schema["required"]:
                flagged_required.append(name)
            schema = {key: child for key, child in schema.items() if key != "required"}
        result[name] = _sanitize_schema(schema)
    return result, renames, flagged_required


def _sanitize_node(node: dict[Any, Any]) -> dict[Any, Any]:
    """B1 for one schema dict; returns a new dict (children are not copied again)."""
    result: dict[Any, Any] = {}
    union_types: list[Any] | None = None  # set when a type list has several non-null types
    add_nullable = False
    renames: dict[str, str] = {}
    flagged_required: list[str] = []
    for key, value in node.items():
        if key not in _B1_KEYS:
            result[key] = value  # data: required, enum, examples, default, const, unknown keys
        elif key == "type" and isinstance(value, list):
            non_null = [item for item in value if item != "null"]
            add_nullable = bool(non_null) and "null" in value
            if len(non_null) == 1:
                result["type"] = non_null[0]
            elif len(non_null) > 1:
                union_types = non_null  # the ``type`` key is removed
            elif value:
                result["type"] = "null"  # only "null" (no ``nullable``: docs/reference.md §23.3)
            else:
                result["type"] = "object"
        elif key == "properties" and isinstance(value, dict):
            result[key], renames, flagged_required = _sanitize_properties(value)
        elif key in _SCHEMA_CHILD_SET:
            if key == "items" and isinstance(value, list):
                result[key] = [_sanitize_schema(item) for item in value]
            else:
                result[key] = _sanitize_schema(value)
        elif key in _SCHEMA_LIST_SET and isinstance(value, list):
            result[key] = [_sanitize_schema(item) for item in value]
        elif key in _SCHEMA_MAP_KEPT_SET and isinstance(value, dict):
            result[key] = {name: _sanitize_schema(child) for name, child in value.items()}
        else:
            result[key] = value  # data: required, enum, examples, default, const, unknown keys

    if union_types is not None:
        # Several non-null types: an ``anyOf`` of new bare ``{"type": X}`` nodes. The reference
        # does not visit these again, so an ``object`` branch made here gets no ``properties``
        # or ``required`` (docs/reference.md §23.2, the Grafana ``update_dashboard`` examples).
        result["anyOf"] = [{"type": item} for item in union_types]
    if add_nullable:
        result.setdefault("nullable", True)

    if renames or flagged_required:
        required = result.get("required")
        if isinstance(required, list):
            required = [renames.get(entry, entry) if isinstance(entry, str) else entry
                        for entry in required]
        elif flagged_required:
            required = []
        if isinstance(required, list):
            for name in flagged_required:
                if name not in required:
                    required.append(name)
            result["required"] = required

    if result.get("type") == "object":
        _ensure_object_members(result)
    return result


# --- B2, B5 -------------------------------------------------------------------------------


def _force_object_root(root: dict[Any, Any]) -> None:
    """B2, in place: root ``type`` is ``object``, with a dict ``properties``, list ``required``."""
    root["type"] = "object"
    if not isinstance(root.get("properties"), dict):
        root["properties"] = {}
    if not isinstance(root.get("required"), list):
        root["required"] = []


def _drop_default_beside_ref(value: Any) -> None:
    """B5, in place: remove ``default`` from every dict that also has ``$ref``."""
    if isinstance(value, list):
        for item in value:
            _drop_default_beside_ref(item)
    elif isinstance(value, dict):
        if "$ref" in value:
            value.pop("default", None)
        for child in value.values():
            _drop_default_beside_ref(child)
