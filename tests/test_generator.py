"""The sample catalogs are generated from the data files in scripts/catalog_data/: regenerating
them must give the shipped files byte for byte, and the data files must be their only source."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "generate_catalogs.py"
DATA = ROOT / "scripts" / "catalog_data"
SHIPPED = ROOT / "sample_catalogs"


def generate(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run the generator as a user does (``python scripts/generate_catalogs.py ...``)."""
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=600)


def copy_data(tmp_path: Path, keep: list[str]) -> Path:
    """A copy of the data folder whose catalogs.yaml lists only the catalogs in ``keep``."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    index = yaml.safe_load((data / "catalogs.yaml").read_text(encoding="utf-8"))
    index["catalogs"] = [c for c in index["catalogs"] if c["file"] in keep]
    (data / "catalogs.yaml").write_text(yaml.safe_dump(index, sort_keys=False), encoding="utf-8")
    return data


def test_regenerating_gives_every_shipped_sample_catalog_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = generate("--out-dir", out)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    written = sorted(p.name for p in out.iterdir())
    # Every catalog file at the top of sample_catalogs/ comes from the generator, and nothing else.
    shipped = sorted([p.name for p in SHIPPED.glob("*.yaml")] + ["README.md"])
    assert written == shipped
    assert len(written) == 10
    for name in written:
        assert (out / name).read_bytes() == (SHIPPED / name).read_bytes(), name
    # The size report names every catalog with its tool count.
    rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()
            if line.split() and line.split()[0].endswith(".yaml")}
    assert rows == {"issue-tracker.yaml": "24", "five-servers.yaml": "58",
                    "github-full.yaml": "95", "grafana-full.yaml": "100",
                    "unreal-editor.yaml": "864", "cloudflare-flat.yaml": "3300",
                    "japanese.yaml": "40", "hard-cases.yaml": "35", "team-workspace.yaml": "181"}


def test_an_edited_data_file_changes_exactly_the_catalogs_that_use_it(tmp_path: Path) -> None:
    data = copy_data(tmp_path, ["issue-tracker.yaml", "github-full.yaml", "grafana-full.yaml"])
    # One tool's description in the linear data file.
    linear = data / "servers" / "linear.yaml"
    old = "Get one user by ID, name, email or `me`."
    text = linear.read_text(encoding="utf-8")
    assert text.count(old) == 1
    linear.write_text(text.replace(old, "Look up one workspace member."), encoding="utf-8")
    # A schema defined once in the github data file's `shared` section and used by many tools.
    github = data / "servers" / "github.yaml"
    text = github.read_text(encoding="utf-8")
    edited, count = re.subn(r"(\n  owner: &owner\n    type: string\n    description: ).*?(\n  \S)",
                            r"\1Owner login.\2", text, flags=re.DOTALL)
    assert count == 1
    github.write_text(edited, encoding="utf-8")
    out = tmp_path / "out"
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "github-full.yaml",
                                                     "grafana-full.yaml", "issue-tracker.yaml"]
    assert (out / "grafana-full.yaml").read_bytes() == (SHIPPED / "grafana-full.yaml").read_bytes()

    def load(folder: Path, name: str) -> dict:
        return yaml.safe_load((folder / name).read_text(encoding="utf-8"))

    tracker, shipped = load(out, "issue-tracker.yaml"), load(SHIPPED, "issue-tracker.yaml")
    assert tracker != shipped
    (get_user,) = [t for t in shipped["servers"][0]["tools"] if t["name"] == "get_user"]
    assert get_user["description"].startswith(old)
    get_user["description"] = get_user["description"].replace(old, "Look up one workspace member.")
    assert tracker == shipped

    full, shipped = load(out, "github-full.yaml"), load(SHIPPED, "github-full.yaml")
    changed = 0
    for tool in shipped["servers"][0]["tools"]:
        owner = tool["inputSchema"]["properties"].get("owner")
        if owner is not None and owner["description"].startswith("Repository owner: the login"):
            owner["description"] = "Owner login."
            changed += 1
    assert changed > 50
    assert full == shipped


def test_only_and_leave_out_pick_tools_in_data_file_order(tmp_path: Path) -> None:
    data = copy_data(tmp_path, ["issue-tracker.yaml"])
    index = yaml.safe_load((data / "catalogs.yaml").read_text(encoding="utf-8"))
    linear = index["catalogs"][0]["servers"][0]
    linear["only"] = ["get_user", "list_issues", "get_issue"]
    second = dict(linear, name="linear", leave_out=linear["only"])
    del second["only"]
    index["catalogs"][0]["servers"].append(second)
    (data / "catalogs.yaml").write_text(yaml.safe_dump(index, sort_keys=False), encoding="utf-8")
    out = tmp_path / "out"
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 0, result.stderr
    doc = yaml.safe_load((out / "issue-tracker.yaml").read_text(encoding="utf-8"))
    first, rest = doc["servers"]
    assert [t["name"] for t in first["tools"]] == ["list_issues", "get_issue", "get_user"]
    assert len(rest["tools"]) == 21
    assert {t["name"] for t in rest["tools"]}.isdisjoint(linear["only"])
    assert "| linear (3), linear (21) | 24 |" in (out / "README.md").read_text(encoding="utf-8")


def test_bad_data_gives_one_line_naming_the_file_and_place(tmp_path: Path) -> None:
    data = copy_data(tmp_path, ["issue-tracker.yaml"])
    index_path = data / "catalogs.yaml"
    index = yaml.safe_load(index_path.read_text(encoding="utf-8"))
    index["catalogs"][0]["servers"][0]["only"] = ["list_issues", "list_everything"]
    index_path.write_text(yaml.safe_dump(index, sort_keys=False), encoding="utf-8")
    out = tmp_path / "out"
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (f"error: {index_path}: catalogs[0] (issue-tracker.yaml) servers[0]: "
                             "only: expected tools of 'linear' in servers/linear.yaml, found "
                             "unknown list_everything\n")
    assert not out.exists()

    (data / "servers" / "linear.yaml").write_text("linear:\n- name: [unclosed\n",
                                                  encoding="utf-8")
    index["catalogs"][0]["servers"][0].pop("only")
    index_path.write_text(yaml.safe_dump(index, sort_keys=False), encoding="utf-8")
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {data / 'servers' / 'linear.yaml'}: line 3 not "
                                    "valid YAML (")
    assert result.stderr.count("\n") == 1

    result = generate("--data-dir", tmp_path / "missing", "--out-dir", out)
    assert result.returncode == 2
    assert result.stderr == (f"error: {tmp_path / 'missing' / 'catalogs.yaml'}: cannot read "
                             "(No such file or directory)\n")


def test_an_edited_template_vocabulary_entry_changes_the_generated_tools(tmp_path: Path) -> None:
    data = copy_data(tmp_path, ["unreal-editor.yaml", "cloudflare-flat.yaml"])
    # Unreal: rename one actor's key; every tool made from it is renamed, nothing else moves
    # (the seeded picks and the sample depend on the vocabulary's sizes, not its words).
    unreal = data / "templates" / "unreal.yaml"
    text = unreal.read_text(encoding="utf-8")
    assert text.count("- key: trigger_box\n") == 1
    unreal.write_text(text.replace("- key: trigger_box\n", "- key: trigger_cube\n"),
                      encoding="utf-8")
    # Cloudflare: reword one product's sentence, which ends up in each of its tools.
    cloudflare = data / "templates" / "cloudflare.yaml"
    old_note = "D1 is a serverless SQLite database bound to Workers."
    new_note = "D1 is the SQLite database of Workers."
    text = cloudflare.read_text(encoding="utf-8")
    assert text.count(f"  d1: {old_note}\n") == 1
    cloudflare.write_text(text.replace(f"  d1: {old_note}\n", f"  d1: {new_note}\n"),
                          encoding="utf-8")
    out = tmp_path / "out"
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 0, result.stderr

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: much faster when present

    def load(folder: Path, name: str) -> dict:
        return yaml.load((folder / name).read_text(encoding="utf-8"), Loader=loader)

    edited, shipped = load(out, "unreal-editor.yaml"), load(SHIPPED, "unreal-editor.yaml")
    renamed = 0
    for t in shipped["servers"][0]["tools"]:
        if "trigger_box" in t["name"]:
            t["name"] = t["name"].replace("trigger_boxes", "trigger_cubes").replace(
                "trigger_box", "trigger_cube")
            renamed += 1
    assert renamed == 15
    assert edited == shipped
    assert "trigger_box" not in (out / "unreal-editor.yaml").read_text(encoding="utf-8")

    edited, shipped = load(out, "cloudflare-flat.yaml"), load(SHIPPED, "cloudflare-flat.yaml")
    reworded = []
    for t in shipped["servers"][0]["tools"]:
        if old_note in t["description"]:
            t["description"] = t["description"].replace(old_note, new_note)
            reworded.append(t["name"])
    assert len(reworded) == 12
    assert all(name.startswith("accounts_d1_") for name in reworded)
    assert edited == shipped
    assert "| cloudflare (3300) | 3,300 |" in (out / "README.md").read_text(encoding="utf-8")


def test_a_template_without_a_vocabulary_entry_gives_one_line(tmp_path: Path) -> None:
    data = copy_data(tmp_path, ["cloudflare-flat.yaml"])
    cloudflare = data / "templates" / "cloudflare.yaml"
    text = cloudflare.read_text(encoding="utf-8")
    assert text.count("\nzone_settings:") == 1
    cloudflare.write_text(text.replace("\nzone_settings:", "\nzone_setting:"), encoding="utf-8")
    out = tmp_path / "out"
    result = generate("--data-dir", data, "--out-dir", out)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (f"error: {cloudflare}: expected the vocabulary entry "
                             "'zone_settings' (cloudflare template)\n")
    assert not out.exists()
