"""``plan --context-length 1`` (the smallest length accepted) printed "context length: 1 tokens"; a round length reads
as every other surface writes it (``32K``)."""

from __future__ import annotations

from conftest import run_cli


def test_a_one_token_context_reads_in_the_singular(tmp_path):
    done = run_cli("plan", "sample_catalogs/team-workspace.yaml", "--context-length", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "context length: 1 token; threshold_pct 5%, listing_max_tokens 4,000"
    done = run_cli("plan", "sample_catalogs/team-workspace.yaml", "--context-length", "32k", cwd=tmp_path)
    assert done.stdout.splitlines()[1] == "context length: 32K; threshold_pct 5%, listing_max_tokens 4,000"
