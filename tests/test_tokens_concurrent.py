"""Several processes loading a BPE tokenizer at once (test workers, two apps) never make tiktoken
fall back to downloading its rank file: the cached copy is replaced whole, never seen half written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
from toolsearch.engine import tokens
for _ in range(8):
    assert tokens._load_tiktoken("o200k_base").name == "o200k_base"
print("ok")
"""


def test_concurrent_loads_share_the_cache_without_the_network(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT),
               # any download attempt fails at once instead of waiting on the closed network
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", NO_PROXY="")
    children = [subprocess.Popen([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [child.communicate(timeout=300) for child in children]
    assert [child.returncode for child in children] == [0, 0, 0, 0], [err[-400:] for _, err in results]
    assert all(out.strip() == "ok" for out, _ in results)
    cached = [p for p in (tmp_path / "toolsearch-tiktoken").iterdir()]
    assert len(cached) == 1 and not cached[0].name.startswith(".")  # no temporary file left behind
    assert oct(cached[0].stat().st_mode & 0o777) == "0o644"


def test_a_temp_folder_that_cannot_hold_the_cache_still_counts_exactly(tmp_path):
    """``toolsearch-tiktoken`` in the temp folder may be a file, or another user's folder that this
    user cannot write to (a shared CI runner): the count is the same, from the pure-Python encoder
    of the same ranks. Before, the CLI stopped with a FileExistsError / PermissionError traceback."""
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "toolsearch-tiktoken").write_text("not a folder\n", encoding="utf-8")
    fine = tmp_path / "fine"
    fine.mkdir()
    catalog = ROOT / "sample_catalogs" / "five-servers.yaml"
    runs = {}
    for name, folder in (("blocked", blocked), ("fine", fine)):
        env = dict(os.environ, TMPDIR=str(folder), PYTHONPATH=str(ROOT),
                   HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", NO_PROXY="")
        runs[name] = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(catalog), "--tokenizer",
                                     "o200k_base", "--context-length", "32k"], env=env, capture_output=True,
                                    text=True, timeout=300)
    assert runs["blocked"].returncode == 0, runs["blocked"].stderr[-600:]
    assert "Traceback" not in runs["blocked"].stderr
    assert runs["blocked"].stdout == runs["fine"].stdout
    assert "listing: 1,325 tokens (o200k_base)" in runs["fine"].stdout


def test_a_cache_folder_others_may_write_to_is_not_used(tmp_path):
    """A ``toolsearch-tiktoken`` folder that others may write to (made first by another user of a
    shared temp folder, mode 777), or a link to a folder, is left alone: a file there could be removed
    or swapped between toolsearch writing it and tiktoken reading it, and tiktoken would then fetch
    the ranks from the network. The count is the same, from the ranks in memory."""
    catalog = ROOT / "sample_catalogs" / "five-servers.yaml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outputs = []
    for name in ("open", "linked"):
        folder = tmp_path / name
        folder.mkdir()
        if name == "open":
            (folder / "toolsearch-tiktoken").mkdir()
            os.chmod(folder / "toolsearch-tiktoken", 0o777)
        else:
            (folder / "toolsearch-tiktoken").symlink_to(elsewhere, target_is_directory=True)
        env = dict(os.environ, TMPDIR=str(folder), PYTHONPATH=str(ROOT),
                   HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", NO_PROXY="")
        done = subprocess.run([sys.executable, "-m", "toolsearch", "plan", str(catalog), "--tokenizer", "o200k_base",
                               "--context-length", "32k"], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-600:]
        outputs.append(done.stdout)
        assert list((folder / "toolsearch-tiktoken").iterdir()) == []  # nothing written there
    assert outputs[0] == outputs[1] and "listing: 1,325 tokens (o200k_base)" in outputs[0]
