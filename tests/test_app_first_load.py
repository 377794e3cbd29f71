"""The first load of the Strategies and Search quality & lint pages, in a fresh process: neither
imports PyTorch or sentence-transformers unless the semantic variant is chosen (importing them
takes seconds and hundreds of MB), and each draws its figures with no error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("torch", "sentence_transformers", "transformers")

SCRIPT = """
import json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=300)
at.run()
seen = {}
for page in ("strategies", "quality"):
    at.switch_page(f"toolsearch/ui/{page}.py").run()
    seen[page] = {"exception": [str(e.value) for e in at.exception],
                  "heavy": sorted(m for m in sys.modules if m.split(".")[0] in json.loads(sys.argv[2])),
                  "charts": len(at.get("plotly_chart"))}
print(json.dumps(seen))
"""


def test_first_loads_never_import_the_embedding_stack():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "app.py"), json.dumps(HEAVY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    for page in ("strategies", "quality"):
        assert seen[page]["exception"] == [], seen[page]
        assert seen[page]["heavy"] == [], f"{page} imported {seen[page]['heavy']}"
    # what is in view is drawn: the metrics chart and the timeline; the quality metrics chart
    assert seen["strategies"]["charts"] == 2 and seen["quality"]["charts"] == 1, seen
