"""An output option (``-o``, ``--export-queries``) naming a named pipe that nothing reads is one
line on stderr and exit status 2, at once: the file was opened with a plain ``open``, which waits
for a reader, so the command blocked forever. A pipe something reads, and a character device
(``/dev/null``), are still written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolsearch.cli.textfmt import NO_READER, write_output_file

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
STORE = ROOT / "sample_sessions" / "state.db"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")


def run(*args: object) -> subprocess.CompletedProcess:
    """``python -m toolsearch ARGS`` from this checkout, in its own process, with a time limit: a
    command that waits on the pipe is killed, and the test fails, instead of hanging the run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "toolsearch", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, env=env, timeout=90, check=False)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "out.pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("args, option", [
    (("synth", "--tools", "5", "--servers", "1", "-o"), "-o"),
    (("report", TEAM, "--context-length", "200k", "--no-lint", "--no-strategies", "-o"), "-o"),
    (("sessions", STORE, "--catalog", TEAM, "--export-queries"), "--export-queries"),
])
def test_a_named_pipe_with_no_reader_is_refused_in_one_line(fifo: Path, args: tuple, option: str) -> None:
    done = run(*args, fifo)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("toolsearch: error")]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"toolsearch: error: {fifo}: ") and NO_READER in lines[0], lines


def test_a_named_pipe_with_a_reader_gets_the_output(fifo: Path) -> None:
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # reading before the command starts
    try:
        done = run("synth", "--tools", "5", "--servers", "1", "-o", fifo)
        assert done.returncode == 0, done.stderr
        data = b""
        while chunk := os.read(reader, 65536):  # the command has exited: what it wrote is in the pipe
            data += chunk
    finally:
        os.close(reader)
    catalog = json.loads(data)
    assert sum(len(s["tools"]) for s in catalog["servers"]) == 5


def test_a_character_device_is_written() -> None:
    done = run("synth", "--tools", "5", "--servers", "1", "-o", os.devnull)
    assert done.returncode == 0, done.stderr
    assert f"wrote {os.devnull}" in done.stderr


def test_the_writer_refuses_other_files_that_are_not_files(tmp_path: Path, fifo: Path) -> None:
    with pytest.raises(OSError) as raised:
        write_output_file(str(fifo), "x")
    assert raised.value.strerror == NO_READER
    with pytest.raises(OSError) as raised:
        write_output_file(str(tmp_path), "x")
    assert raised.value.strerror == "a folder, not a file"
    target = tmp_path / "out.txt"
    target.write_text("old and longer", encoding="utf-8")
    write_output_file(str(target), "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
