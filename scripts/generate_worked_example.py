"""Write the strategies worked example to ``sample_catalogs/seed-worked-example/``.

Run ``python scripts/generate_worked_example.py``. The files (``catalog.yaml``,
``skills/<name>/SKILL.md``, ``task.yaml``) come from :func:`toolsearch.analysis.synthetic.worked_example`
and are byte-identical on every run; ``tests/test_strategies.py`` checks that the shipped files
equal this output and that they give the example's figures exactly.
"""

from __future__ import annotations

import sys
from pathlib import Path

from toolsearch.analysis.synthetic import write_worked_example

FOLDER = Path(__file__).resolve().parent.parent / "sample_catalogs" / "seed-worked-example"


def main() -> int:
    written = write_worked_example(FOLDER)
    print(f"wrote {len(written)} files under {FOLDER}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
