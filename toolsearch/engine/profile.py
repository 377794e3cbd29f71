"""The wording profile: every sentence the model sees that is not tool data (DESIGN.md).

The shipped profile ``profiles/default.yaml`` is written by this project. A user profile is a
YAML file with the same keys; missing keys are an error (a silent fallback would mix wordings).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping


from . import readers
from .errors import ProfileError
from .invisible import yaml_kind

#: Every key a profile must have, by section.
REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "listing": ("header", "group_heading", "full_line", "full_line_bare", "names_separator", "summary_line"),
    "framing": ("listed", "mixed_extra", "groups"),
    "tool_search": ("description", "queries", "limit"),
    "tool_describe": ("description", "names"),
    "tool_call": ("description", "calls", "name", "arguments"),
    "hints": ("search_empty", "describe_not_found", "call_validation", "too_many_queries", "too_many_names"),
    "errors": (
        "queries_required", "queries_empty", "too_many_queries", "names_required", "names_empty",
        "too_many_names", "not_deferrable", "not_in_session", "unknown_tool", "did_you_mean",
        "use_search", "out_of_scope", "call_requires_calls", "calls_invalid_json", "calls_not_array",
        "call_entry_not_object", "call_entry_no_name", "call_bridge_name",
        "call_arguments_invalid_json", "call_arguments_not_object", "multi_local",
        "missing_required", "validation_failed", "connectors_unavailable",
    ),
    "registration": ("default_description", "list_resources", "read_resource", "list_prompts",
                     "get_prompt", "uri", "prompt_name", "prompt_arguments"),
}


@dataclass(frozen=True)
class Profile:
    """A loaded wording profile.

    Attributes:
        name: display name from the file's ``name`` key.
        source: where it was loaded from (``default`` or a path).
        sections: ``{section: {key: text}}``, all strings.
    """

    name: str
    source: str
    sections: Mapping[str, Mapping[str, str]] = field(repr=False)

    def text(self, section: str, key: str, **values: Any) -> str:
        """The text at ``section.key`` with ``{placeholders}`` filled from ``values``.

        Only named placeholders that are given are replaced, so literal braces in the text
        (e.g. ``{name, arguments}``) are left alone.
        """
        template = self.sections[section][key]
        if not values:
            return template
        # One pass over the template: a value holding "{count}" (a server named so) stays as written.
        pattern = re.compile("|".join(re.escape("{" + placeholder + "}") for placeholder in values))
        return pattern.sub(lambda m: str(values[m.group()[1:-1]]), template)

    def formatter(self, section: str, key: str, *placeholders: str) -> str:
        """The text at ``section.key`` as a :meth:`str.format` string whose ``{0}``, ``{1}``…
        are ``placeholders`` in that order (every other brace doubled): for filling one template
        many times, each value once, as :meth:`text` does."""
        parts = re.split("(" + "|".join(re.escape("{" + p + "}") for p in placeholders) + ")",
                         self.sections[section][key])
        return "".join("{" + str(placeholders.index(part[1:-1])) + "}" if i % 2 else
                       part.replace("{", "{{").replace("}", "}}") for i, part in enumerate(parts))


#: Placeholders each section may use; any other ``{word}`` is a typo that would reach the model.
ALLOWED_PLACEHOLDERS: dict[str, frozenset[str]] = {
    "listing": frozenset({"label", "count", "name", "description"}),
    "framing": frozenset(),
    "tool_search": frozenset({"count"}),
    "tool_describe": frozenset(),
    "tool_call": frozenset(),
    "hints": frozenset(),
    "errors": frozenset({"name", "count", "max", "candidates", "index", "detail", "retry", "rest", "missing",
                         "path", "constraint"}),
    "registration": frozenset({"tool", "server"}),
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")
# "{word" with no "}" before the next "{" or the end (prose like "{name, arguments}" is closed).
# "{count:,}", "{name!r}", "{label[0]}", "{label.upper}": Python format syntax, which is not filled
# (prose such as "{name: string}" has a space and is not matched).
_FORMATTED = re.compile(r"\{([A-Za-z_]+)(?:[:!][^{}\s]*|\[[^{}\s]*\]|\.[A-Za-z_][^{}\s]*)\}")
_UNCLOSED = re.compile(r"\{[A-Za-z_]+(?![A-Za-z_}])(?=[^{}]*(?:\{|$))")


def _check_placeholders(source: str, section: str, key: str, text: str) -> None:
    unknown = sorted(set(_PLACEHOLDER.findall(text)) - ALLOWED_PLACEHOLDERS[section])
    if unknown:
        allowed = ", ".join("{" + p + "}" for p in sorted(ALLOWED_PLACEHOLDERS[section])) or "none"
        raise ProfileError(f"{source}: {section}.{key}: unknown placeholder {{{unknown[0]}}} (allowed here: {allowed})")
    formatted = _FORMATTED.search(text)
    if formatted and formatted.group(1) in ALLOWED_PLACEHOLDERS[section]:
        raise ProfileError(f"{source}: {section}.{key}: placeholder {formatted.group()!r} has a format spec, index "
                           f"or conversion; only the plain form {{{formatted.group(1)}}} is filled")
    unclosed = _UNCLOSED.search(text)
    if unclosed:
        raise ProfileError(f"{source}: {section}.{key}: placeholder {unclosed.group()!r} is not closed with '}}'")


def parse_profile(data: Any, source: str) -> Profile:
    """Validate raw profile data.

    Raises:
        ProfileError: not a mapping, a section or key is missing, a value is not a string, or a
            text uses a placeholder its section does not fill / leaves one unclosed (the message
            names the source and the ``section.key``).
    """
    if not isinstance(data, Mapping):
        raise ProfileError(f"{source}: top level: expected a mapping of profile sections")
    sections: dict[str, dict[str, str]] = {}
    for section, keys in REQUIRED_KEYS.items():
        raw = data.get(section)
        if not isinstance(raw, Mapping):
            raise ProfileError(f"{source}: {section}: expected a mapping with keys {', '.join(keys)}")
        values: dict[str, str] = {}
        for key in keys:
            if key not in raw:
                raise ProfileError(f"{source}: {section}.{key}: missing (every key of the default profile is required)")
            value = raw.get(key)
            if not isinstance(value, str):
                raise ProfileError(f"{source}: {section}.{key}: expected a string, got {yaml_kind(value)}")
            _check_placeholders(source, section, key, value)
            values[key] = value
        sections[section] = values
    return Profile(name=str(data.get("name") or source), source=source, sections=sections)


#: The profile file shipped with the package.
DEFAULT_PROFILE_PATH = Path(__file__).resolve().parent / "profiles" / "default.yaml"


@lru_cache(maxsize=1)
def default_profile() -> Profile:
    """The profile shipped with the package (:data:`DEFAULT_PROFILE_PATH`)."""
    text = DEFAULT_PROFILE_PATH.read_text(encoding="utf-8")
    return parse_profile(readers.load_yaml(text, "default", ProfileError), "default")


def load_profile(path: str | Path | None) -> Profile:
    """Load a profile file, or the default one when ``path`` is ``None``.

    Raises:
        ProfileError: unreadable file, invalid YAML, or a missing/mistyped key.
    """
    if path is None:
        return default_profile()
    path = Path(path)
    text = readers.read_text(path, ProfileError, "profile")
    return parse_profile(readers.load_yaml(text, str(path), ProfileError), str(path))


def profile_from_text(text: str, source: str) -> Profile:
    """Parse a profile from YAML text (for uploads). Raises :class:`ProfileError`."""
    return parse_profile(readers.load_yaml(text, source, ProfileError), source)
