"""The ``tools.tool_search`` configuration block (docs/reference.md §1).

Parsing never fails on a bad value: like the reference harness, every key falls back to its
default or is clamped (docs/reference.md §1.1, §1.2, §1.3). What was changed is recorded in
:attr:`ToolSearchConfig.warnings` so the CLI and the app can say so. Only an unreadable file
raises :class:`~toolsearch.engine.errors.ConfigError`.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, NamedTuple

import yaml

from . import constants as C
from . import readers
from .errors import ConfigError
from .invisible import yaml_kind, yaml_spelled
from .secrets import mask_token_shapes
from .wording import settings_words, threshold_value

#: Longest value quoted in a config warning (past it, cut with "…").
SHOWN_VALUE_MAX_CHARS = C.SHOWN_VALUE_MAX_CHARS


def shown_value(value: Any) -> str:
    """A config value as a warning quotes it: in YAML's spelling with invisible characters as
    markers (:func:`~toolsearch.engine.invisible.yaml_spelled`: ``'on⟨U+202E⟩'``, ``true``,
    ``2001-12-14``), credential shapes masked (a key pasted into the wrong place of a harness config
    is still a secret) and cut to :data:`SHOWN_VALUE_MAX_CHARS`."""
    text = mask_token_shapes(yaml_spelled(value, SHOWN_VALUE_MAX_CHARS))
    return text if len(text) <= SHOWN_VALUE_MAX_CHARS else text[:SHOWN_VALUE_MAX_CHARS - 1] + "…"


def _shown_key(key: Any) -> str:
    """A mapping key of a harness config as a warning names it: a short string as written with credential
    shapes masked (a key pasted into the wrong place is still a secret), anything else as :func:`shown_value`
    quotes it (its ``repr``, masked and cut)."""
    return shown_value(key) if not isinstance(key, str) or len(key) > 60 else mask_token_shapes(key)


#: Every spelling of ``enabled`` and ``listing`` that :func:`normalize_tri_state` reads as itself
#: or as its documented meaning (docs/reference.md §1.3); anything else is replaced by ``auto``.
TRI_STATE_SPELLINGS = ("true", "1", "yes", "false", "0", "no", *C.TRI_STATE_VALUES)


def normalize_tri_state(value: Any) -> str:
    """Map a value to ``auto``/``on``/``off`` (docs/reference.md §1.3).

    ``str(value)`` is trimmed and lowercased; ``true/1/yes`` → ``on``, ``false/0/no`` → ``off``;
    ``auto/on/off`` are kept; anything else (``None`` → ``"none"``, ``"maybe"``) → ``auto``.
    """
    text = str(value).strip().lower()
    if text in TRI_STATE_SPELLINGS[:3]:
        return "on"
    if text in TRI_STATE_SPELLINGS[3:6]:
        return "off"
    if text in C.TRI_STATE_VALUES:
        return text
    return "auto"


def parse_int(value: Any, fallback: int) -> int:
    """Plain integer conversion as the reference does it (docs/reference.md §1.1).

    Floats are truncated (3.9 → 3), booleans count as 1/0, numeric strings of integers parse,
    anything else (``"3.9"``, ``"abc"``, ``None``, NaN) gives ``fallback``.
    """
    try:
        if isinstance(value, float) and not math.isfinite(value):
            return fallback
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return fallback


def parse_float(value: Any, fallback: float) -> float:
    """``float(value)``; unparseable (or NaN) gives ``fallback``. Booleans give 1.0/0.0."""
    try:
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        return fallback
    return fallback if math.isnan(result) else result


def _clamp(value, low, high):
    return max(low, min(high, value))


#: The numeric keys: (parser, default, lowest, highest); search_default_limit's highest is the
#: effective max_search_limit (docs/reference.md §1.1).
_NUMERIC = {
    "threshold_pct": (parse_float, C.THRESHOLD_PCT_DEFAULT, C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX),
    "max_search_limit": (parse_int, C.MAX_SEARCH_LIMIT_DEFAULT, C.MAX_SEARCH_LIMIT_MIN, C.MAX_SEARCH_LIMIT_MAX),
    "search_default_limit": (parse_int, C.SEARCH_DEFAULT_LIMIT_DEFAULT, 1, None),
    "listing_max_tokens": (parse_int, C.LISTING_MAX_TOKENS_DEFAULT, C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX),
}


def setting_value(key: str, value: Any) -> str:
    """A value of the numeric setting ``key`` as every warning about it names the value used:
    ``threshold_pct`` with its percent sign (``5%``), ``listing_max_tokens`` with thousands
    separators and its unit (``60,000 tokens``), the search limits as plain numbers (``50``)."""
    if key == "threshold_pct":
        return threshold_value(value)
    if key == "listing_max_tokens":
        return f"{value:,} tokens"
    return repr(value)


def clamped_words(key: str, result: Any, low: float | None = None, high: float | None = None) -> str:
    """The end of every notice that a value of the numeric setting ``key`` was clamped, after the
    value as given: ``"is outside 200..60,000, so it was clamped to 60,000 tokens"``. The config
    file's and the command line's warnings and the app's budget notes all end in these words, so a
    clamp reads the same everywhere.

    Args:
        key: ``threshold_pct``, ``listing_max_tokens``, ``max_search_limit`` or ``search_default_limit``.
        result: the value used (inside the range).
        low, high: the range (default: the key's range; ``search_default_limit``'s highest is the
            effective ``max_search_limit``, so give it)."""
    _, _, key_low, key_high = _NUMERIC[key]
    low = key_low if low is None else low
    high = key_high if high is None else high
    return f"is outside {low:,g}..{high:,g}, so it was clamped to {setting_value(key, result)}"


def _what_happened(key: str, raw: Any, result: Any, max_limit: int) -> str:
    """The end of a config warning: what the value ``raw`` of ``key`` became and why: not a number
    (the default is used), outside the range (clamped), not a whole number (truncated, and then
    clamped when the whole number is outside the range), or read as another value (a boolean as 1/0,
    an unknown tri-state word as auto)."""
    if key not in _NUMERIC:
        return f"is not auto, on or off, so it was read as {result!r}"

    def shown(value: Any) -> str:  # as every surface writes the value (5%, 4,000 tokens)
        return setting_value(key, value)

    parse, default, low, high = _NUMERIC[key]
    high = max_limit if high is None else high
    missing = object()
    parsed = parse(raw, missing)
    if parsed is missing:
        what = "a number" if parse is parse_float else "a whole number"
        if parse is parse_int and isinstance(raw, str) and _written_number(raw):
            # a flag or a link reads 1e400 or 4k; the harness reads this key with plain int(), digits only
            what = "a whole number as the harness reads this key (digits only, no exponent or suffix)"
        used = f"the default {shown(default)} is used" + (f", clamped to {result!r} by max_search_limit" if result != default else "")
        return f"is not {what}, so {used}"
    read = f"counts as {shown(parsed)} and " if isinstance(raw, bool) else ""
    if parse is parse_int and isinstance(raw, float) and parsed != raw:
        # 3.5 is truncated before the range is checked: "outside 200..60,000" alone hid the 3
        if parsed == result:
            return f"is not a whole number, so it was truncated to {shown(parsed)}"
        return f"is not a whole number and was truncated to {shown(parsed)}, which {clamped_words(key, result, low, high)}"
    if parsed != result:
        return f"{read}{clamped_words(key, result, low, high)}"
    return f"was read as {shown(result)}"


def _written_number(text: str) -> bool:
    """Whether ``text`` is a whole number as the command line writes one (``1e400``, ``4k``,
    ``4,000``), which the harness's plain integer conversion cannot read."""
    import decimal  # noqa: PLC0415

    value = text.strip().lower().replace(",", "")
    value = value[:-1] if value[-1:] in ("k", "m") else value
    try:
        number = decimal.Decimal(value)
        return number.is_finite() and number == number.to_integral_value()
    except decimal.InvalidOperation:
        return False


class LocatedWarning(NamedTuple):
    """One config warning with the place it names, for output that points at the line to fix
    (``check --format github``'s annotations).

    Attributes:
        text: the warning as :attr:`ToolSearchConfig.warnings` holds it (``config.yaml: line 3: …``).
        file: the config file it is about, or ``None`` (a settings flag's value, a block parsed
            from no file).
        line: the 1-based line in ``file``, or ``None`` when it names none.
        message: ``text`` without its ``FILE: line N:`` opening (``text`` itself when it has none).
    """

    text: str
    file: str | None
    line: int | None
    message: str


#: The two settings that size the listing budget, in the reference key order.
BUDGET_KEYS: tuple[str, ...] = ("threshold_pct", "listing_max_tokens")


@dataclass(frozen=True)
class ToolSearchConfig:
    """Effective ``tools.tool_search`` settings after parsing and clamping (docs/reference.md §1.1).

    Attributes:
        enabled: ``auto`` | ``on`` | ``off``. ``auto`` behaves as ``on``.
        threshold_pct: percent of the context length given to the listing, 0..100.
        search_default_limit: matches per query when ``limit`` is absent, 1..max_search_limit.
        max_search_limit: upper clamp for ``limit``, 1..50.
        listing: ``auto`` | ``on`` | ``off``; only ``off`` changes anything.
        listing_max_tokens: listing budget cap in tokens, 200..60,000.
        defer: the effective defer set (sorted tuple of tool names).
        defer_is_default: True when ``defer`` is the curated default set.
        warnings: human-readable notes about values that were replaced or clamped.
        warning_places: for each of ``warnings`` (same order), the config file and 1-based line
            it names (``(file, None)``: the file but no line), or ``None``: as read from the YAML
            nodes, so the place is never read back from the text. See :meth:`located_warnings`.
        read_as_default: the budget settings (``threshold_pct``, ``listing_max_tokens``) the block
            gave no usable value for (absent, or a value that could not be read), so their defaults
            are used: with a warning about such a key (a misspelt ``listing_max_token``), the
            default stands where the user meant a value of their own.
    """

    enabled: str = C.ENABLED_DEFAULT
    threshold_pct: float = C.THRESHOLD_PCT_DEFAULT
    search_default_limit: int = C.SEARCH_DEFAULT_LIMIT_DEFAULT
    max_search_limit: int = C.MAX_SEARCH_LIMIT_DEFAULT
    listing: str = C.LISTING_DEFAULT
    listing_max_tokens: int = C.LISTING_MAX_TOKENS_DEFAULT
    defer: tuple[str, ...] = tuple(sorted(C.DEFAULT_DEFER))
    defer_is_default: bool = True
    warnings: tuple[str, ...] = field(default=(), compare=False)
    warning_places: tuple[tuple[str, int | None] | None, ...] = field(default=(), compare=False)
    read_as_default: tuple[str, ...] = field(default=BUDGET_KEYS, compare=False)

    def located_warnings(self) -> tuple[LocatedWarning, ...]:
        """:attr:`warnings`, each with the file and line it names (:class:`LocatedWarning`); a
        warning whose place is not recorded (or a list of places that does not match the
        warnings one for one) names none."""
        places = self.warning_places if len(self.warning_places) == len(self.warnings) else ()
        out = []
        for index, text in enumerate(self.warnings):
            place = places[index] if places else None
            if place is None:
                out.append(LocatedWarning(text, None, None, text))
                continue
            path, line = place
            opening = f"{path}: " + (f"line {line}: " if line else "")
            message = text[len(opening):] if text.startswith(opening) else text
            out.append(LocatedWarning(text, path, line, message))
        return tuple(out)

    @property
    def active(self) -> bool:
        """True unless ``enabled`` is ``off`` (``auto`` is an alias of ``on``, docs/reference.md §1.1)."""
        return self.enabled != "off"

    @property
    def listing_enabled(self) -> bool:
        """True unless ``listing`` is ``off`` (docs/reference.md §1.1)."""
        return self.listing != "off"

    def with_overrides(self, **changes: Any) -> "ToolSearchConfig":
        """Return a copy with raw values re-parsed through :func:`parse_config`.

        Keys are the block's keys; ``None`` values are ignored (meaning "not given").
        """
        block = self.to_block()
        if self.defer_is_default and changes.get("defer") is None:
            del block["defer"]  # keep "not set" (the curated default), not an explicit copy of it
        for key, value in changes.items():
            if value is not None:
                block[key] = value
        return parse_config(block)

    def to_block(self) -> dict[str, Any]:
        """The block as plain data, in the reference key order (docs/reference.md §1.1; for YAML output)."""
        return {
            "enabled": self.enabled,
            "threshold_pct": self.threshold_pct,
            "search_default_limit": self.search_default_limit,
            "max_search_limit": self.max_search_limit,
            "listing": self.listing,
            "listing_max_tokens": self.listing_max_tokens,
            "defer": list(self.defer),
        }


def parse_defer(value: Any) -> tuple[tuple[str, ...], bool, str | None]:
    """Parse the ``defer`` value (docs/reference.md §1.6).

    Returns ``(names, is_default, warning)``: absent/null → curated default; a list, tuple or
    set → its items as trimmed strings, blanks dropped, replacing the default wholesale; any
    other value → curated default plus a warning naming ``tools.tool_search.defer``.
    """
    default = tuple(sorted(C.DEFAULT_DEFER))
    if value is None:
        return default, True, None
    if isinstance(value, (list, tuple, set, frozenset)):
        names = {str(item).strip() for item in value}
        names.discard("")
        return tuple(sorted(names)), False, None
    warning = (
        f"tools.tool_search.defer: expected a YAML list of tool names (e.g. defer: [todo_list]), "
        f"got {yaml_kind(value)} {shown_value(value)}; using the curated default set"
    )
    return default, True, warning


def parse_config(block: Any) -> ToolSearchConfig:
    """Build the effective config from the raw ``tools.tool_search`` value (docs/reference.md §1.1–§1.6).

    Args:
        block: the YAML value. A mapping is parsed key by key; the literal boolean ``False``
            gives ``enabled=off``; any other non-mapping (``True``, ``None``, ``"off"``, 0)
            gives ``enabled=auto`` with every other key at its default (docs/reference.md §1.2).

    Returns:
        A :class:`ToolSearchConfig`. Never raises.
    """
    return _parse_block(block)[0]


#: The place of a warning about the ``tools.tool_search`` block as a whole (not one of its keys).
_BLOCK = object()


def _parse_block(block: Any) -> tuple[ToolSearchConfig, tuple[Any, ...]]:
    """:func:`parse_config`, with the block's own key each warning is about (as the YAML value holds
    it, before any masking or cutting for display), or :data:`_BLOCK` for a warning about the whole
    block, in the order of the warnings: a warning is placed at its key's line by that key, not by
    reading its text back (a key holding ``:`` or a masked or cut key named the block's line)."""
    warnings: list[str] = []
    places: list[Any] = []
    if not isinstance(block, Mapping):
        if block is True or block is False or block is None:
            return ToolSearchConfig(enabled="off" if block is False else "auto"), ()
        return ToolSearchConfig(enabled="auto", warnings=(
            f"tools.tool_search: {shown_value(block)} is not a mapping of settings, so it was read as enabled: auto with "
            "every setting at its default (only false turns tool search off)",)), (_BLOCK,)

    enabled = normalize_tri_state(block.get("enabled", C.ENABLED_DEFAULT))
    listing = normalize_tri_state(block.get("listing", C.LISTING_DEFAULT))
    threshold = _clamp(
        parse_float(block.get("threshold_pct", C.THRESHOLD_PCT_DEFAULT), C.THRESHOLD_PCT_DEFAULT),
        C.THRESHOLD_PCT_MIN, C.THRESHOLD_PCT_MAX,
    )
    # max_search_limit first: it bounds the default limit (docs/reference.md §1.1).
    max_limit = _clamp(
        parse_int(block.get("max_search_limit", C.MAX_SEARCH_LIMIT_DEFAULT), C.MAX_SEARCH_LIMIT_DEFAULT),
        C.MAX_SEARCH_LIMIT_MIN, C.MAX_SEARCH_LIMIT_MAX,
    )
    default_limit = _clamp(
        parse_int(block.get("search_default_limit", C.SEARCH_DEFAULT_LIMIT_DEFAULT), C.SEARCH_DEFAULT_LIMIT_DEFAULT),
        1, max_limit,
    )
    cap = _clamp(
        parse_int(block.get("listing_max_tokens", C.LISTING_MAX_TOKENS_DEFAULT), C.LISTING_MAX_TOKENS_DEFAULT),
        C.LISTING_MAX_TOKENS_MIN, C.LISTING_MAX_TOKENS_MAX,
    )
    defer, defer_default, defer_warning = parse_defer(block.get("defer"))
    if defer_warning:
        warnings.append(defer_warning)
        places.append("defer")
    for key, result in (("enabled", enabled), ("listing", listing), ("threshold_pct", threshold),
                        ("max_search_limit", max_limit), ("search_default_limit", default_limit),
                        ("listing_max_tokens", cap)):
        raw = block.get(key)
        if raw is None and key in block:  # "threshold_pct:" with nothing after it: unreadable, the default applies
            default = result if key in ("enabled", "listing") else _NUMERIC[key][1]
            warnings.append(f"tools.tool_search.{key}: null (no value), so the default "
                            f"{default if key in ('enabled', 'listing') else setting_value(key, default)} is used")
            places.append(key)
            continue
        boolean_number = isinstance(raw, bool) and not isinstance(result, (bool, str))  # true == 1 in Python
        if raw is None or (not boolean_number and (raw == result or str(raw).strip().lower() == str(result))):
            continue
        if key in ("enabled", "listing") and str(raw).strip().lower() in TRI_STATE_SPELLINGS:
            continue  # off/on unquoted are YAML booleans, and true/false/yes/no/1/0 are documented spellings
        if isinstance(result, (int, float)) and isinstance(raw, str) and parse_float(raw, math.nan) == result:
            continue  # e.g. "50" from the command line, read as 50.0: nothing was replaced
        warnings.append(f"tools.tool_search.{key}: {shown_value(raw)} {_what_happened(key, raw, result, max_limit)}")
        places.append(key)
    known = {"enabled", "threshold_pct", "search_default_limit", "max_search_limit", "listing",
             "listing_max_tokens", "defer"}
    unknown = 0
    for key in block:
        if key not in known:
            unknown += 1
            if unknown > C.CONFIG_UNKNOWN_KEYS_NAMED:
                continue  # counted below: a block of thousands of keys named each one, on every page rerun
            # a misspelt key is the usual cause: name the key it was probably meant to be
            close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.75) if isinstance(key, str) else []
            shown = _shown_key(key)
            warnings.append(f"tools.tool_search.{shown}: "
                            "unknown key, ignored" + (f"; did you mean {close[0]}?" if close else ""))
            places.append(key)
    if unknown > C.CONFIG_UNKNOWN_KEYS_NAMED:
        warnings.append(f"tools.tool_search: {unknown - C.CONFIG_UNKNOWN_KEYS_NAMED:,} more unknown keys, ignored "
                        f"(counted, not named: the first {C.CONFIG_UNKNOWN_KEYS_NAMED:,} are named)")
        places.append(_BLOCK)
    # a value replaced by its default (it could not be read) is as good as absent
    defaults = {"threshold_pct": C.THRESHOLD_PCT_DEFAULT, "listing_max_tokens": C.LISTING_MAX_TOKENS_DEFAULT}
    read = {"threshold_pct": threshold, "listing_max_tokens": cap}
    defaulted = tuple(key for key in BUDGET_KEYS
                      if block.get(key) is None or (key in places and read[key] == defaults[key]))
    return ToolSearchConfig(
        enabled=enabled, threshold_pct=float(threshold), search_default_limit=default_limit,
        max_search_limit=max_limit, listing=listing, listing_max_tokens=cap, defer=defer,
        defer_is_default=defer_default, warnings=tuple(warnings), read_as_default=defaulted,
    ), tuple(places)


def load_config(path: str | Path) -> ToolSearchConfig:
    """Read a harness ``config.yaml`` and parse its ``tools.tool_search`` block.

    A missing ``tools`` or ``tool_search`` key, or a ``tool_search`` key left without a value,
    gives the defaults, as in the reference, with a warning naming the file: a gate run against the
    wrong file or a misspelt key would otherwise check the defaults without a word. A file that
    cannot be read or parsed raises, where the reference would run on the defaults
    (docs/reference.md §1.5).

    Raises:
        ConfigError: the file cannot be read, is not valid YAML, or its top level / ``tools``
            value is not a mapping (message names the file and the place).
    """
    path = Path(path)
    return config_from_text(readers.read_text(path, ConfigError, "config file"), str(path))


def config_from_text(text: str, path: str) -> ToolSearchConfig:
    """:func:`load_config` for a harness ``config.yaml`` already read as ``text`` (an uploaded
    file, say); ``path`` names it in every warning and error, as :func:`load_config` names the file.

    Raises:
        ConfigError: ``text`` is not valid YAML, or its top level / ``tools`` value is not a mapping.
    """
    data = readers.load_yaml(text, path, ConfigError)
    if data is not None and not isinstance(data, Mapping):
        raise ConfigError(f"{path}: top level: expected a mapping (a harness config.yaml), got {yaml_kind(data)}")
    tools = (data or {}).get("tools")
    if tools is not None and not isinstance(tools, Mapping):
        raise ConfigError(f"{path}: tools: expected a mapping with a tool_search key, got {yaml_kind(tools)}")
    if tools is None or "tool_search" not in tools:
        where = "no tools key" if tools is None else (
            "tools has no tool_search key" + (f" (it has {', '.join(map(_shown_key, list(tools)[:6]))})" if tools else ""))
        return ToolSearchConfig(warnings=(f"{path}: {where}, so the tools.tool_search defaults apply "
                                          f"({settings_words(C.THRESHOLD_PCT_DEFAULT, C.LISTING_MAX_TOKENS_DEFAULT)})",),
                                warning_places=((path, None),))
    block = tools.get("tool_search")
    if block is None:
        # Read as the defaults (docs/reference.md §1.2), as a missing block is: said the same way, since a
        # block whose settings were indented wrongly or never written would otherwise be gated as written.
        # (``tool_search: {}``, which recommendations write for the defaults, says so on purpose.)
        line = _block_lines(text)[0]
        return replace(parse_config(block), warnings=(
            f"{path}: " + (f"line {line}: " if line else "") + "tools.tool_search is empty, so the tools.tool_search "
            f"defaults apply ({settings_words(C.THRESHOLD_PCT_DEFAULT, C.LISTING_MAX_TOKENS_DEFAULT)})",),
            warning_places=((path, line),))
    config, places = _parse_block(block)
    if not config.warnings:
        return config
    block_line, key_lines = _block_lines(text)
    located, lines = [], []
    for warning, place in zip(config.warnings, places):
        line = block_line if place is _BLOCK else _key_line(key_lines, place, block_line)
        located.append(f"{path}: " + (f"line {line}: " if line else "") + warning)
        lines.append((path, line))
    return replace(config, warnings=tuple(located), warning_places=tuple(lines))


def _key_line(key_lines: Mapping[Any, int], key: Any, fallback: int | None) -> int | None:
    """The line of ``key`` in ``key_lines``, or ``fallback`` when it is not there (or cannot be looked up)."""
    try:
        return key_lines.get(key, fallback)
    except TypeError:  # an unhashable key cannot come from YAML, but a caller's mapping may hold one
        return fallback


def _block_lines(text: str) -> tuple[int | None, dict[Any, int]]:
    """The 1-based line of ``tools.tool_search`` in the YAML ``text`` and the line of each key of
    that block, keyed by the key as the loaded data holds it (``5`` for ``5:``, ``"a:b"`` for
    ``"a:b":``), taken from the composed nodes' marks, for warnings that point at the line to fix;
    ``(None, {})`` when they cannot be found. Composing builds no values, so no alias is expanded;
    only the block's keys are built (a key that is not text is the value YAML reads, as the loader
    reads it)."""
    def child(node: Any, key: str) -> tuple[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            for name, value in node.value:
                if isinstance(name, yaml.ScalarNode) and name.value == key:
                    return name, value
        return None, None

    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        name, block = child(child(root, "tools")[1], "tool_search")
        if name is None:
            return None, {}
        lines: dict[Any, int] = {}
        if isinstance(block, yaml.MappingNode):
            for key, _value in block.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                try:
                    value = key.value if key.tag == "tag:yaml.org,2002:str" else loader.construct_object(key)
                    lines.setdefault(value, key.start_mark.line + 1)
                except (yaml.YAMLError, TypeError, ValueError):
                    continue  # a key the loader cannot build: its warning names the block's line
        return name.start_mark.line + 1, lines
    except (yaml.YAMLError, RecursionError):
        return None, {}
    finally:
        loader.dispose()


def changed_keys(config: ToolSearchConfig, base: ToolSearchConfig | None = None) -> dict[str, Any]:
    """The keys of ``config`` whose values differ from ``base`` (default: the reference defaults,
    docs/reference.md §1.1), in the reference key order. ``defer`` is included only when ``config`` sets its own
    list (``defer_is_default`` False) and that list differs from ``base``'s."""
    base = base or ToolSearchConfig()
    mine, theirs = config.to_block(), base.to_block()
    out = {key: value for key, value in mine.items() if key != "defer" and value != theirs[key]}
    if not config.defer_is_default and (base.defer_is_default or config.defer != base.defer):
        out["defer"] = mine["defer"]
    return out


def dump_config_block(config: ToolSearchConfig, base: ToolSearchConfig | None = None) -> str:
    """A ``tools: {tool_search: {...}}`` YAML document (block style, reference key order) with
    only the keys that differ from ``base`` (default: the reference defaults); see
    :func:`changed_keys`. With nothing changed the block is ``{}``."""
    return yaml.safe_dump({"tools": {"tool_search": changed_keys(config, base)}}, sort_keys=False,
                          default_flow_style=False, allow_unicode=True)


__all__ = [
    "ToolSearchConfig", "parse_config", "load_config", "config_from_text", "dump_config_block", "changed_keys", "normalize_tri_state",
    "parse_int", "parse_float", "parse_defer", "replace", "clamped_words", "setting_value",
]
