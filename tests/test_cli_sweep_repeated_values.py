"""``sweep`` drops a repeated context length (``32k,32000``) and keeps the order, as the app does;
a repeated ``threshold_pct`` (``5,5.0``) or ``listing_max_tokens`` (``4000,4000``) printed the same
row twice, as if they were two settings."""

from __future__ import annotations

import json

from conftest import run_cli


def test_repeated_grid_values_give_one_row_each(tmp_path):
    done = run_cli("sweep", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k,32000",
                   "--threshold-pcts", "5,5.0,2", "--listing-max-tokens", "4000,4000", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [(r["context_length"], r["threshold_pct"], r["listing_max_tokens"], r["budget"]) for r in rows] == [
        (32_000, 5.0, 4_000, 1_600), (32_000, 2.0, 4_000, 640)]


def test_the_text_table_has_one_row_per_setting(tmp_path):
    done = run_cli("sweep", "sample_catalogs/team-workspace.yaml", "--context-lengths", "32k",
                   "--threshold-pcts", "1,1,1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    body = done.stdout.splitlines()[2:]
    # one row, then the key to its counts (mixed 2/9)
    assert len(body) == 2 and body[0].split()[:4] == ["32K", "1", "4,000", "320"], done.stdout
    assert body[1].startswith("listing_form “mixed 2/9”"), done.stdout
