"""``toolsearch sweep``'s table writes a mixed listing as counts (``mixed 2/9``), as the Tuning page's
grids do; under the table it gives the key those grids give (``“mixed 2/9”: 2 of 9 servers named,
the rest as summary lines``), so README's first command reads without the docs. No mixed row, no key;
CSV and JSON carry the counts in their own columns and keep their shape."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
SWEEP = ("sweep", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32000,200000,1000000")
KEY = "listing_form “mixed 2/9”: 2 of 9 servers named, the rest as summary lines"


def test_sweep_explains_the_mixed_counts_under_its_table():
    done = run_cli(*SWEEP, "--threshold-pcts", "1,2,5,10", cwd=ROOT)  # README's step 1
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == KEY, lines[-3:]
    assert [line.split()[5:7] for line in lines[2:-1]][0] == ["mixed", "2/9"]  # the first mixed row it names
    assert sum(line == KEY for line in lines) == 1


def test_no_key_without_a_mixed_row_and_none_in_csv_or_json():
    done = run_cli(*SWEEP, "--threshold-pcts", "10", cwd=ROOT)
    assert done.returncode == 0 and "servers named, the rest as summary lines" not in done.stdout, done.stdout
    for fmt in ("--csv", "--json"):
        out = run_cli(*SWEEP, "--threshold-pcts", "1", fmt, cwd=ROOT)
        assert out.returncode == 0 and "the rest as summary lines" not in out.stdout
