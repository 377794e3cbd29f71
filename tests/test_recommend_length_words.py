"""``recommend`` writes a context length one way in its sentences (``32K``, ``200K``, ``1M``, as
:func:`toolsearch.analysis.recommend.context_words` writes it): the ``--yaml`` block's comments
said ``# at 32K:`` and then ``lists less than … at 200,000``."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
STORE = ROOT / "sample_sessions" / "state.db"
#: a context length written with thousands separators (a token count such as "1,473 tokens" or
#: "4,000" is followed by a unit or a closing parenthesis, not by " (" or ",")
GROUPED_LENGTH = re.compile(r"\b(?:at|lengths?) \d{1,3}(?:,\d{3})+\b")


#: the goal that keeps what the defaults list at 200K and 1M (keeping_goal)
KEEPING = '--goal names,200k=full,1m=full keeps what the default settings list at 200K and 1M; that goal takes threshold_pct 4.7%, listing_max_tokens 3,656: a listing of 1,473 tokens at 32K (4.6% of the context), 3,656 tokens at 200K (1.8% of the context) and 3,656 tokens at 1M (0.4% of the context)'


def test_yaml_comments_write_every_context_length_as_the_at_lines_do() -> None:
    result = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--yaml",
                     "--sessions", STORE)
    assert result.returncode == 0, result.stderr
    comments = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert "# context lengths: 32K, 200K, 1M · planning tokenizer chars4" in comments
    assert any(line.startswith("# at 200K: ") for line in comments), comments
    assert ("# lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 200K "
            "(lower form: full → names), 1M (lower form: full → names) · it is the cheapest setting that meets "
            "the goal · " + KEEPING + " · more headroom lists at least as much as the default settings at every length only from 149% "
            "headroom on") \
        in comments, comments
    assert any(line.startswith("# the sessions also ran at 16K (3 sessions), shorter than every listed context "
                               "length") for line in comments), comments
    assert not [line for line in comments if GROUPED_LENGTH.search(line)], comments


def test_text_output_sentences_write_lengths_as_the_yaml_block_does() -> None:
    result = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--sessions", STORE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "goal: every server at names or better · context lengths 32K, 200K, 1M · planning tokenizer chars4"
    sentences = [line for line in lines if not re.match(r"^[\d,]+ ", line)]  # the table writes plain numbers
    assert not [line for line in sentences if GROUPED_LENGTH.search(line)], sentences
