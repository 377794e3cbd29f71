"""Hostile and careless inputs: each reader and command answers a bad input with one clear line
(never a traceback), and one bad part never takes the rest down."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import run_cli

from toolsearch.analysis import skills
from toolsearch.engine.errors import InputLimitError

ROOT = Path(__file__).resolve().parent.parent
SKILL = "---\nname: {name}\ndescription: A skill for {name}.\n---\nbody\n"


def _nest(top: Path, levels: int) -> Path:
    """A folder ``levels`` deep below ``top`` (made one level at a time: the whole path is longer
    than one system call takes)."""
    here = os.getcwd()
    try:
        os.chdir(top)
        for _ in range(levels):
            os.mkdir("d")
            os.chdir("d")
        return Path(os.getcwd())
    finally:
        os.chdir(here)


def test_a_skills_folder_nested_a_thousand_levels_deep_is_read(tmp_path: Path) -> None:
    # Path.rglob recursed once per level: the command ended with a RecursionError traceback.
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "SKILL.md").write_text(SKILL.format(name="top"))
    bottom = _nest(tmp_path, 1_100)
    (bottom / "deep").mkdir()
    (bottom / "deep" / "SKILL.md").write_text(SKILL.format(name="deep"))
    loaded = skills.load_skills(tmp_path)
    assert sorted(s.name for s in loaded.skills) == ["deep", "top"]
    result = run_cli("strategies", ROOT / "sample_catalogs" / "five-servers.yaml", "--skills", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "skills: 2;" in result.stdout


def test_a_skills_folder_walk_stops_at_the_folder_limit(tmp_path: Path, monkeypatch) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / name / "x").mkdir(parents=True)
    (tmp_path / "a" / "SKILL.md").write_text(SKILL.format(name="a"))
    monkeypatch.setattr(skills, "MAX_SKILL_FOLDERS", 6)
    try:
        skills.load_skills(tmp_path)
    except skills.SkillError as exc:
        assert isinstance(exc, InputLimitError)
        assert str(exc) == (f"{tmp_path}: more than 6 folders in it or below it (limit); give the folder that "
                            "holds the skills")
    else:
        raise AssertionError("the walk went past the folder limit")
    monkeypatch.setattr(skills, "MAX_SKILL_FOLDERS", 7)  # the folder itself and its six below
    assert [s.name for s in skills.load_skills(tmp_path).skills] == ["a"]


def test_a_link_to_a_folder_in_a_skills_folder_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "SKILL.md").write_text(SKILL.format(name="one"))
    (tmp_path / "one" / "loop").symlink_to(tmp_path)  # would find one/SKILL.md again, for ever
    (tmp_path / "two").mkdir()
    (tmp_path / "two" / "SKILL.md").symlink_to(tmp_path / "one" / "SKILL.md")  # a linked file is read
    loaded = skills.load_skills(tmp_path)
    assert [s.origin for s in loaded.skills] == [str(tmp_path / "one" / "SKILL.md")]
    assert len(loaded.problems) == 2  # "two" repeats the name "one", and differs from its folder name


def test_docs_security_states_the_skills_folder_limit() -> None:
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    assert f"over at most {skills.MAX_SKILL_FOLDERS:,} folders" in text
