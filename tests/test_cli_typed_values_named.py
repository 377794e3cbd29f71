"""A value given on the command line is named as typed in what the command says about it: a
``--threshold-pcts`` item clamped is named as written (``1e400``, where ``1e+15`` was printed), and a token
count with a tiny fraction is not spelled out as hundreds of zeros."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

FIVE = str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "five-servers.yaml")


def test_a_clamped_threshold_pcts_item_is_named_as_typed() -> None:
    done = run_cli("sweep", FIVE, "--threshold-pcts", "1e400,2", "--context-lengths", "32k")
    assert done.returncode == 0, done.stderr
    assert ("toolsearch: warning: --threshold-pcts value 1e400 is outside 0..100, so it was clamped to 100%"
            in done.stderr.splitlines()), done.stderr
    assert "1e+15" not in done.stderr


def test_a_tiny_fraction_of_a_token_is_named_short() -> None:
    done = run_cli("plan", FIVE, "--listing-max-tokens", "1e-400")
    assert done.returncode == 2
    assert done.stderr.rstrip().endswith("got '1e-400', which is 1e-400 tokens"), done.stderr
    assert len(done.stderr) < 400 and "0000000000" not in done.stderr
    small = run_cli("plan", FIVE, "--listing-max-tokens", "1.5e3")  # a whole number written with an exponent
    assert small.returncode == 0, small.stderr
    half = run_cli("plan", FIVE, "--listing-max-tokens", "4.5e2")
    assert half.returncode == 0 and "listing_max_tokens 450" in half.stdout, half.stdout + half.stderr
    frac = run_cli("plan", FIVE, "--listing-max-tokens", "4.0005e3")
    assert frac.returncode == 2 and frac.stderr.rstrip().endswith("which is 4000.5 tokens"), frac.stderr
