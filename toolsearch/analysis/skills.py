"""Agent Skills: ``SKILL.md`` files (or a YAML list) that a strategy can link tools to.

A skill is listed to the model by name and description before the first turn; its body is read
on demand. Two frontmatter fields matter to disclosure strategies (see
:mod:`toolsearch.analysis.strategies`):

* ``metadata.include_tools`` — space-separated tool wire names (e.g. ``mcp__github__create_issue``)
  that the *skill-linked* strategy makes callable only after the skill was read;
* ``allowed-tools`` — the Agent Skills *pre-approval* field: tools the harness may run without
  asking while the skill is active. It does **not** disclose or unlock anything; it is kept and
  shown as pre-approval only.

Accepted sources:

* a folder: every ``SKILL.md`` below it (any depth), in path order;
* one ``SKILL.md`` file;
* a YAML (or JSON) list of skills: ``[{name, description, include_tools?, allowed-tools?,
  metadata?, body? | body_tokens?}, ...]`` (or a mapping with a ``skills`` list).
  ``include_tools`` may sit at the top level of an entry or under ``metadata``; a string is split
  on whitespace, a list of strings is taken as is. ``body_tokens`` states a body size (tokens)
  instead of a body text and is used as given for every tokenizer.

Loading is lenient per skill, like catalogs: a bad skill is reported as a
:class:`~toolsearch.engine.catalog.Problem` naming the file and the place, and skipped; the other skills
still load. Only a path that cannot be read at all raises :class:`SkillError`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import yaml

from ..engine.invisible import quoted, yaml_kind
from ..engine import constants as C
from ..engine import readers
from ..engine.catalog import Problem
from ..engine.errors import ToolsearchError
from ..engine.tokens import Tokenizer
from .wording import shown_path

#: How one skill is listed to the model before the first turn (name + description). The
#: skills listing is the lines joined by newlines; each line is counted on its own.
SKILL_LISTING_LINE = "- {name}: {description}"
#: Agent Skills name rule: lowercase letters, digits and single hyphens, not at either end.
_SKILL_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class SkillError(ToolsearchError):
    """A skills source cannot be read at all (missing path, not UTF-8, no skills in a folder)."""


@dataclass(frozen=True)
class Skill:
    """One skill.

    Attributes:
        name: the frontmatter ``name``.
        description: the frontmatter ``description`` (what the model sees up front).
        include_tools: tool wire names from ``metadata.include_tools``, in file order, de-duplicated.
        allowed_tools: entries of ``allowed-tools`` (pre-approval only, never disclosure).
        body: the Markdown after the frontmatter, blank lines at both ends removed.
        body_tokens: a stated body size in tokens (YAML lists only), else ``None`` (count ``body``).
        origin: ``file`` or ``file: [index]`` it came from.
        metadata: the whole ``metadata`` mapping as written.
    """

    name: str
    description: str
    include_tools: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] = ()
    body: str = ""
    body_tokens: int | None = None
    origin: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def listing_line(self) -> str:
        """The line that lists this skill to the model (:data:`SKILL_LISTING_LINE`)."""
        return SKILL_LISTING_LINE.format(name=self.name, description=self.description)

    def listing_token_count(self, tokenizer: Tokenizer) -> int:
        """Tokens of :attr:`listing_line` (name + description)."""
        return tokenizer.count(self.listing_line)

    def body_token_count(self, tokenizer: Tokenizer) -> int:
        """Tokens paid when the skill is read: :attr:`body_tokens` if stated, else the body counted."""
        return self.body_tokens if self.body_tokens is not None else tokenizer.count(self.body)


@dataclass(frozen=True)
class SkillSet:
    """Skills loaded from one or more sources.

    Attributes:
        skills: the skills, in source order; names are unique (a repeated name is skipped).
        problems: what was skipped or repaired, each naming the file and the place.
        sources: the files or folders read.
    """

    skills: tuple[Skill, ...] = ()
    problems: tuple[Problem, ...] = ()
    sources: tuple[str, ...] = ()

    def by_name(self) -> dict[str, Skill]:
        """``{name: skill}``."""
        return {s.name: s for s in self.skills}

    @property
    def names(self) -> tuple[str, ...]:
        """Skill names in order."""
        return tuple(s.name for s in self.skills)


# --- one SKILL.md -----------------------------------------------------------------------------

def _words(value: Any, where: str, key: str, problems: list[Problem]) -> tuple[str, ...]:
    """A space-separated string (or a list of strings) as a de-duplicated tuple of words."""
    if value is None:
        return ()
    if isinstance(value, str):
        items = value.split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = [w for v in value for w in v.split()]
    else:
        problems.append(Problem("warning", f"{where}.{key}",
                                f"expected a space-separated string of tool names, got {yaml_kind(value)}; ignored"))
        return ()
    return tuple(dict.fromkeys(items))


def _skill_from_mapping(data: Any, where: str, problems: list[Problem], body: str = "",
                        folder: str | None = None, allow_body_keys: bool = False,
                        origin: str | None = None) -> Skill | None:
    """Validate one skill's fields (frontmatter or a YAML list entry). ``where`` prefixes places."""
    if not isinstance(data, Mapping):
        got = "nothing" if data is None else yaml_kind(data)
        problems.append(Problem("error", where, f"expected a mapping with name and description, got {got}; skill skipped"))
        return None
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem("error", f"{where}.name", "expected a non-empty string; skill skipped"))
        return None
    name = name.strip()
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append(Problem("error", f"{where}.description",
                                f"skill {quoted(name)}: expected a non-empty string; skill skipped"))
        return None
    description = " ".join(description.split())
    if len(name) > C.SKILL_NAME_MAX_CHARS or not _SKILL_NAME.match(name):
        problems.append(Problem("warning", f"{where}.name",
                                f"{quoted(name)} does not follow the Agent Skills name rule (lowercase letters, digits "
                                f"and single hyphens, at most {C.SKILL_NAME_MAX_CHARS} characters); kept"))
    if folder is not None and folder != name:
        problems.append(Problem("warning", f"{where}.name",
                                f"{quoted(name)} differs from its folder name {quoted(folder)} (Agent Skills expects them equal); kept"))
    if len(description) > C.SKILL_DESCRIPTION_MAX_CHARS:
        problems.append(Problem("warning", f"{where}.description",
                                f"{len(description)} characters, over the Agent Skills limit of "
                                f"{C.SKILL_DESCRIPTION_MAX_CHARS}; kept"))
    metadata = data.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        problems.append(Problem("warning", f"{where}.metadata", f"expected a mapping, got {yaml_kind(metadata)}; ignored"))
        metadata = {}
    include = _words(metadata.get("include_tools"), f"{where}.metadata", "include_tools", problems)
    if allow_body_keys and "include_tools" in data:
        include = tuple(dict.fromkeys(include + _words(data.get("include_tools"), where, "include_tools", problems)))
    allowed = _words(data.get("allowed-tools", data.get("allowed_tools")), where, "allowed-tools", problems)
    body_tokens = None
    if allow_body_keys:
        raw_body = data.get("body")
        if raw_body is not None and not isinstance(raw_body, str):
            problems.append(Problem("warning", f"{where}.body", f"expected text, got {yaml_kind(raw_body)}; ignored"))
            raw_body = None
        body = (raw_body or "").strip("\n")
        stated = data.get("body_tokens")
        if stated is not None:
            if isinstance(stated, bool) or not isinstance(stated, int) or stated < 0:
                problems.append(Problem("warning", f"{where}.body_tokens",
                                        f"expected a whole number of tokens ≥ 0, got {quoted(stated)}; the body text is counted"))
            else:
                body_tokens = stated
    return Skill(name=name, description=description, include_tools=include, allowed_tools=allowed, body=body,
                 body_tokens=body_tokens, origin=origin or where, metadata=dict(metadata))


def parse_skill_md(text: str, origin: str, problems: list[Problem], folder: str | None = None) -> Skill | None:
    """Parse one ``SKILL.md``: YAML frontmatter between ``---`` lines, then the Markdown body.

    Args:
        text: the file text.
        origin: the file name used in messages.
        problems: receives what was wrong, each naming ``origin`` and the line or field.
        folder: the name of the folder holding the file (checked against ``name``), if any.

    Returns:
        The skill, or ``None`` when it had to be skipped (the reason is in ``problems``).
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        problems.append(Problem("error", f"{origin}: line 1",
                                "expected YAML frontmatter opening with a '---' line; skill skipped"))
        return None
    close = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if close is None:
        problems.append(Problem("error", f"{origin}: line 1",
                                "the frontmatter opened here has no closing '---' line; skill skipped"))
        return None
    try:  # a blank first line stands for the opening '---', so YAML's line numbers are the file's
        data = readers.load_yaml("\n" + "\n".join(lines[1:close]), origin, SkillError)
    except SkillError as exc:
        place, _, what = str(exc).removeprefix(f"{origin}: ").partition(": ")
        what = f"frontmatter is {what}" if what.startswith("not valid") else what
        problems.append(Problem("error", f"{origin}: {place}", f"{what}; skill skipped"))
        return None
    body = "\n".join(lines[close + 1:]).strip("\n")
    return _skill_from_mapping(data, f"{origin}: frontmatter", problems, body=body, folder=folder, origin=origin)


def parse_skill_list(text: str, origin: str, problems: list[Problem]) -> list[Skill]:
    """Parse a YAML/JSON list of skills (see the module docstring). Bad entries are skipped.

    Raises:
        SkillError: the text is not YAML, or not a list (nor a mapping with a ``skills`` list).
    """
    data = readers.load_data(text, origin, SkillError, "YAML")
    if isinstance(data, Mapping) and isinstance(data.get("skills"), list):
        data, prefix = data["skills"], "skills"
    else:
        prefix = ""
    if not isinstance(data, list):
        got = "an empty document" if data is None else yaml_kind(data)
        raise SkillError(f"{origin}: top level: expected a list of skills (or a mapping with a 'skills' list), got {got}")
    skills = []
    for index, item in enumerate(data):
        skill = _skill_from_mapping(item, f"{origin}: {prefix}[{index}]", problems, allow_body_keys=True)
        if skill is not None:
            skills.append(skill)
    return skills


# --- sources ----------------------------------------------------------------------------------

def _dedupe(skills: Iterable[Skill], problems: list[Problem]) -> tuple[Skill, ...]:
    seen: dict[str, Skill] = {}
    for skill in skills:
        if skill.name in seen:
            problems.append(Problem("error", skill.origin,
                                    f"skill {quoted(skill.name)} is already defined in {seen[skill.name].origin}; "
                                    "this one is skipped"))
            continue
        seen[skill.name] = skill
    return tuple(seen.values())


def _read(path: Path) -> str:
    try:
        with readers.open_input(path) as fh:
            data = readers.read_stream(fh, shown_path(path), SkillError)
    except OSError as exc:
        raise SkillError(f"{shown_path(path)}: cannot read ({exc.strerror or exc})") from None
    return readers.decode_bytes(data, shown_path(path), SkillError)


def _file_problem(name: str, exc: SkillError) -> Problem:
    """A whole file skipped: the error's place (after ``name``) and what is wrong with it."""
    text = str(exc)
    rest = text.removeprefix(f"{name}: ")
    place, what = (rest.split(": ", 1) if rest.startswith(("line ", "top level")) and ": " in rest else ("", rest))
    return Problem("error", f"{name}: {place}" if place else name, f"{what}; file skipped")


def _is_skill_list(name: str) -> bool:
    return name.lower().endswith((".yaml", ".yml", ".json"))


def skills_from_texts(files: Sequence[tuple[str, str]], folders: Sequence[str | None] | None = None) -> SkillSet:
    """Skills from ``(file name, text)`` pairs, e.g. app uploads.

    ``.yaml``/``.yml``/``.json`` files are skill lists; anything else is one ``SKILL.md``. A
    ``SKILL.md`` named ``<folder>/SKILL.md`` has its name checked against ``<folder>`` (or
    against ``folders[i]``, the name of the folder holding file ``i``, when given).

    Raises:
        SkillError: a skill list that is not YAML or not a list (names the file and place), when it
            is the only file; among several, it is skipped with a problem and the others load.
    """
    problems: list[Problem] = []
    skills: list[Skill] = []
    for index, (name, text) in enumerate(files):
        if _is_skill_list(name):
            try:
                skills.extend(parse_skill_list(text, name, problems))
            except SkillError as exc:
                if len(files) == 1:
                    raise
                problems.append(_file_problem(name, exc))
        else:
            parts = Path(name).parts
            folder = folders[index] if folders is not None else (parts[-2] if len(parts) >= 2 else None)
            skill = parse_skill_md(text, name, problems, folder)
            if skill is not None:
                skills.append(skill)
    return SkillSet(_dedupe(skills, problems), tuple(problems), tuple(n for n, _ in files))


#: Most folders a skills folder may hold, itself and every folder below it (a skills folder holds
#: one folder per skill, a few hundred at most); a walk past it is refused in one line.
MAX_SKILL_FOLDERS = 100_000


def skill_files(folder: Path) -> tuple[list[Path], list[Problem]]:
    """Every ``SKILL.md`` in ``folder`` or below it, at any depth, in path order, and the folders
    passed over because they cannot be listed (one warning each, naming the folder and why).

    The walk keeps its own list of folders to visit instead of recursing (``Path.rglob`` recurses
    once per level, and a folder nested a thousand levels deep ended the command with a
    ``RecursionError`` traceback). A link to a folder is not followed, as ``rglob`` does not
    follow one. Every entry named ``SKILL.md`` that is not a folder is returned, a regular file or
    not (a link, a named pipe, a device): :func:`load_skills` reads it or says why it skipped it,
    so no ``SKILL.md`` is left out without a word.

    Raises:
        SkillError: (also an :class:`~toolsearch.engine.errors.InputLimitError`) more than
            :data:`MAX_SKILL_FOLDERS` folders to walk, naming the folder and the limit.
    """
    import os  # noqa: PLC0415

    found: list[Path] = []
    passed_over: list[Problem] = []
    pending = [str(folder)]
    walked = 0
    while pending:
        current = pending.pop()
        walked += 1
        if walked > MAX_SKILL_FOLDERS:
            raise readers.limit_error(SkillError, f"{shown_path(folder)}: more than {MAX_SKILL_FOLDERS:,} folders "
                                                  "in it or below it (limit); give the folder that holds the skills")
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    try:
                        is_folder = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_folder = False
                    if is_folder:
                        pending.append(entry.path)
                    elif entry.name == "SKILL.md":
                        found.append(Path(entry.path))
        except OSError as exc:
            passed_over.append(Problem("warning", shown_path(Path(current)),
                                       f"folder cannot be listed ({exc.strerror or exc}); its skills are not read"))
    return sorted(found), sorted(passed_over, key=lambda problem: problem.where)


def load_skills(path: str | Path) -> SkillSet:
    """Load skills from a folder of ``SKILL.md`` files, one ``SKILL.md``, or a YAML list.

    Every path the result and its messages name (each skill's ``origin``, each problem's place,
    ``sources``) is shown as :func:`~toolsearch.analysis.wording.shown_path` shows it: relative
    to the working folder when inside it, else ``~/…`` inside the home folder.

    Raises:
        SkillError: the path does not exist or cannot be read, a folder holds no ``SKILL.md``,
            or a skill list is not YAML / not a list. Problems with single skills do not raise.
    """
    path = Path(path)
    if path.is_dir():
        files, passed_over = skill_files(path)
        if not files:
            why = f" ({len(passed_over):,} of its folders cannot be listed: {passed_over[0].where})" if passed_over else ""
            raise SkillError(f"{shown_path(path)}: no SKILL.md files in this folder or below it{why}")
        texts, folders, unread, first = [], [], [], ""
        for p in files:  # one SKILL.md that cannot be read (not UTF-8, too large, a pipe) skips that skill only
            try:
                texts.append((shown_path(p), _read(p)))
                folders.append(p.parent.name)
            except SkillError as exc:
                unread.append(_file_problem(shown_path(p), exc))
                first = first or str(exc)
        if not texts:
            raise SkillError(first if len(unread) == 1 else
                             f"{shown_path(path)}: none of its {len(unread)} SKILL.md files can be read; {first}")
        result = skills_from_texts(texts, folders)
        return SkillSet(result.skills, (*passed_over, *unread, *result.problems), (shown_path(path),))
    if not path.exists():
        raise SkillError(f"{shown_path(path)}: no such file or folder")
    parts = path.parts  # a SKILL.md given with its folder has its name checked against it
    return skills_from_texts([(shown_path(path), _read(path))], [parts[-2] if len(parts) >= 2 else None])


def dump_skill_md(skill: Skill) -> str:
    """A ``SKILL.md`` text for ``skill`` (frontmatter, blank line, body, newline at the end).

    ``metadata.include_tools`` is written space-separated; :func:`parse_skill_md` reads the
    result back to an equal skill.
    """
    front: dict[str, Any] = {"name": skill.name, "description": skill.description}
    if skill.allowed_tools:
        front["allowed-tools"] = " ".join(skill.allowed_tools)
    metadata = {k: v for k, v in dict(skill.metadata).items() if k != "include_tools"}
    if skill.include_tools:
        metadata["include_tools"] = " ".join(skill.include_tools)
    if metadata:
        front["metadata"] = metadata
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=10_000).rstrip("\n")
    return f"---\n{head}\n---\n\n{skill.body}\n"
