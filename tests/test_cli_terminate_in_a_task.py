"""SIGTERM that lands while a task other than the command's runs (a server's reader, say) with
SIGINT ignored (a command started with ``&`` in a script): one line, status 143, nothing else."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent("""
    import asyncio, os, signal, sys
    sys.path.insert(0, sys.argv[1])
    from toolsearch.cli.commands import _interruptible

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def run(args):
        async def reader():  # the signal arrives while this task, not the main one, runs
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.sleep(10)

        async def command():
            task = asyncio.ensure_future(reader())
            await asyncio.sleep(10)
            return task

        asyncio.run(command())
        return 0

    sys.exit(_interruptible(run, None))
""")


def test_sigterm_in_another_task_ends_with_one_line_and_143(tmp_path) -> None:
    script = tmp_path / "terminate_in_task.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(ROOT)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 143, done.stderr
    assert done.stderr == "toolsearch: terminated\n"
    assert done.stdout == ""
