"""A skills folder whose ``SKILL.md`` is not a plain file (a named pipe, a broken link, a link to a
device) or that holds a folder that cannot be listed: each is named in a problem and the other
skills load. These were passed over without a word, so a skill could be missing from the
strategies' figures with nothing said."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import run_cli
from toolsearch.analysis.skills import SkillError, load_skills

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _skill(root: Path, name: str) -> None:
    (root / name).mkdir()
    (root / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: The {name} skill.\n---\nbody\n",
                                          encoding="utf-8")


def _odd_folder(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    root.mkdir()
    _skill(root, "good")
    for name in ("pipe", "gone", "device"):
        (root / name).mkdir()
    os.mkfifo(root / "pipe" / "SKILL.md")
    (root / "gone" / "SKILL.md").symlink_to(root / "nowhere.md")
    (root / "device" / "SKILL.md").symlink_to("/dev/zero")
    return root


def test_every_odd_skill_file_is_named_and_the_rest_load(tmp_path: Path) -> None:
    result = load_skills(_odd_folder(tmp_path))
    assert result.names == ("good",)
    skipped = {p.where.rsplit("/", 2)[-2]: (p.severity, p.message) for p in result.problems}
    assert set(skipped) == {"pipe", "gone", "device"}
    assert all(severity == "error" and message.endswith("; file skipped") for severity, message in skipped.values())
    assert "No such file" in skipped["gone"][1]


def test_a_folder_that_cannot_be_listed_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "skills"
    root.mkdir()
    _skill(root, "good")
    (root / "locked").mkdir()
    locked = str(root / "locked")
    scandir = os.scandir

    def refusing(path):  # as a folder without read permission refuses a user other than root
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    result = load_skills(root)
    assert result.names == ("good",)
    assert [(p.severity, p.where, p.message) for p in result.problems] == [
        ("warning", locked, "folder cannot be listed (Permission denied); its skills are not read")]
    (root / "good" / "SKILL.md").unlink()
    with pytest.raises(SkillError, match=r"no SKILL.md files in this folder or below it \(1 of its folders cannot "
                                         r"be listed: .*locked\)"):
        load_skills(root)


def test_the_strategies_command_says_each_skipped_file(tmp_path: Path) -> None:
    root = _odd_folder(tmp_path)
    done = run_cli("strategies", CATALOG, "--skills", root)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("toolsearch: skills error: ")]
    assert len(said) == 3 and {"pipe/SKILL.md", "gone/SKILL.md", "device/SKILL.md"} == {
        line.split(": ")[2].split(str(root) + "/")[-1] for line in said}
