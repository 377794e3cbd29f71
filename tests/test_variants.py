"""Search variants: the one registry, the unicode and agent variants, explanations, the CLI's
``--variant`` and the Search page's why line and variant picker.

Hand-made catalogs are small enough that every result can be checked by reading them; the
figures on the shipped agent-style query files were computed once and checked against the
per-query misses; docs/search.md's table of them is written by benchmarks/docs_figures.py and
checked by tests/test_docs_figures.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables, run_cli, write_yaml
from toolsearch.analysis import evaluation
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.catalog import load_source, load_text
from toolsearch.engine.config import parse_config
from toolsearch.analysis.evaluation import evaluate, load_queries
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.search import SearchOptions, cjk_inner_characters, is_identifier, katakana_words, split_words
from toolsearch.analysis.variants import (DEFAULT_VARIANTS, VARIANTS, VariantError, is_reference, variant_label,
                                 variant_options)

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_catalogs"
QUERIES = SAMPLES / "queries"


def catalog(name: str, tools: list[tuple[str, str]]) -> Inspector:
    data = {"name": name, "servers": [{"name": name, "tools": [{"name": n, "description": d} for n, d in tools]}]}
    return Inspector(load_text(yaml.safe_dump(data, allow_unicode=True), f"{name}.yaml"))


def found(ins: Inspector, variant: str, query: str, limit: int = 5) -> list[str]:
    return [name for name, _ in ins.bridge(parse_config({}), variant_options(variant)).index.search(query, limit)]


def explain(ins: Inspector, variant: str, query: str, limit: int = 5):
    return ins.bridge(parse_config({}), variant_options(variant)).index.explain(query, limit)


# --- the registry -------------------------------------------------------------------------------

def test_one_registry_for_every_reader():
    assert DEFAULT_VARIANTS == ("reference", "no-gate", "no-coverage", "plain-bm25", "unicode", "name-substring",
                                "agent", "evidence", "anthropic-bm25", "anthropic-regex", "hermes-name-bonus")
    # eval reads the same registry (its old names stay importable).
    assert evaluation.DEFAULT_VARIANTS is DEFAULT_VARIANTS and evaluation.variant_options is variant_options
    assert variant_options("reference") == SearchOptions()
    assert variant_options("plain-bm25") == SearchOptions(gate=False, coverage=False)
    assert variant_options("unicode") == SearchOptions(tokenizer="unicode", unknown_terms="ignore-non-ascii")
    assert variant_options("agent") == SearchOptions(
        gate=False, coverage=False, stop_words=True, split_words=True, ignore_unknown_identifiers=True,
        field_weights=(2, 1, 1), min_known_share=0.6, min_idf_share=0.4)
    assert [v.what_if for v in VARIANTS.values()] == [False] + [True] * (len(VARIANTS) - 1)
    assert variant_label("reference") == "reference (what the model gets)"
    assert variant_label("unicode+no-gate") == "what-if: unicode+no-gate"
    # A variant after another search names its source where it is shown.
    assert variant_label("anthropic-regex") == "what-if: anthropic-regex · after Anthropic's tool search (regex)"
    assert (variant_label("anthropic-bm25+hermes-name-bonus") == "what-if: anthropic-bm25+hermes-name-bonus · after "
            "Anthropic's tool search (BM25) · name-coverage bonus proposed for Hermes Agent")
    assert is_reference("reference") and not is_reference("agent")
    with pytest.raises(VariantError, match="unknown variant 'semantik' in 'agent\\+semantik'"):
        variant_options("agent+semantik")
    # The optional semantic variant is registered but never a default (it loads a model).
    assert "semantic" in VARIANTS and VARIANTS["semantic"].requires == "semantic"


def test_option_validation():
    for bad in (dict(unknown_terms="drop"), dict(field_weights=(0, 1, 1)), dict(min_idf_share=1.5),
                dict(min_known_share=-0.1)):
        with pytest.raises(ValueError):
            SearchOptions(**bad)


def test_word_helpers():
    assert split_words("getPlayerStart2D HTTPServer s3Bucket") == "get Player Start 2 D HTTP Server s 3 Bucket"
    assert [w for w in ("MI_Rock", "config/settings.yaml", "ENG-123", "PlayerCharacter", "#42", "slack?", "Done",
                        "hello.") if is_identifier(w)] == ["MI_Rock", "config/settings.yaml", "ENG-123",
                                                           "PlayerCharacter", "#42"]
    assert cjk_inner_characters("天気予報 駅 出口") == {"天", "気", "予", "報", "出", "口"}
    assert katakana_words("ホテルを予約して、エレベーターは") == ["ホテル", "エレベーター"]


# --- the reference is untouched and explains itself ------------------------------------------------

def test_send_a_slack_message_explained_under_the_reference():
    ins = Inspector(load_source(SAMPLES / "team-workspace.yaml"))
    ex = explain(ins, "reference", "send a slack message")
    assert ex.matches == ("mcp__slack__slack_update_message", "mcp__grafana__update_dashboard")
    assert (ex.gate, ex.gate_df, dict(ex.excluded), ex.ignored) == ("send", 2, {"gate": 125}, ())
    best = ex.best_excluded
    assert (best.name, best.rule, round(best.score, 3)) == ("mcp__slack__slack_schedule_message", "gate", 7.607)
    assert ex.summary() == ("Gate term 'send' in 2 tools; excluded: 125 by the gate, 0 by the coverage floor; "
                            "best excluded: mcp__slack__slack_schedule_message (score 7.607): lacks the gate term "
                            "'send'.")
    post = next(c for c in ex.candidates if c.name == "mcp__slack__slack_post_message")
    assert (post.admitted, post.rule, post.reason) == (False, "gate", "lacks the gate term 'send'")
    # A variant's line names only the rules it applies.
    assert explain(ins, "no-coverage", "list issues in a github repository by label").summary() == (
        "Gate term 'issues → issu' in 30 tools; excluded: 135 by the gate; best excluded: "
        "mcp__github__list_code_scanning_alerts (score 7.193): lacks the gate term 'issues → issu'.")
    assert explain(ins, "no-gate", "list issues in a github repository by label").summary() == (
        "Gate term 'issues → issu' in 30 tools (not required by this variant); excluded: 118 by the coverage floor; best "
        "excluded: mcp__linear__list_issue_labels (score 7.813): covers 3 of 8 answerable terms; needs 4.")
    # The agent variant finds slack_post_message (5th) and says why others were left out.
    agent = explain(ins, "agent", "send a slack message")
    assert agent.matches[4] == "mcp__slack__slack_post_message" and dict(agent.excluded) == {"idf-share": 16}


# --- unicode: natural sentences in four languages ----------------------------------------------------

JA = [("search_laws", "法令を検索します。法令名やキーワードで条文を調べます。"),
      ("get_article", "条文の本文を取得します。"),
      ("list_amendments", "法令の改正履歴を一覧表示します。"),
      ("reserve_seat", "新幹線の指定席を予約します。")]
ZH = [("get_forecast", "查询城市的天气预报。"), ("book_train", "预订火车票。"), ("list_orders", "列出我的订单。")]
KO = [("transfer_money", "계좌 이체를 실행합니다."), ("get_balance", "계좌 잔액을 조회합니다."),
      ("list_cards", "카드 목록을 보여줍니다.")]
RU = [("get_portfolio", "Показывает портфель пользователя: бумаги и их стоимость."),
      ("place_order", "Размещает заявку на покупку или продажу бумаги."),
      ("get_quotes", "Возвращает котировки бумаг.")]


@pytest.mark.parametrize("name, tools, query, expected", [
    ("hourei", JA, "法令を調べて", ["mcp__hourei__search_laws"]),
    ("hourei", JA, "改正履歴を見せて", ["mcp__hourei__list_amendments"]),
    ("hourei", JA, "新幹線の指定席を予約して", ["mcp__hourei__reserve_seat"]),
    ("hourei", JA, "天気を教えて", []),       # weather: no tool
    ("hourei", JA, "ホテルを予約して", []),    # hotel: an unknown katakana word empties the result
    ("tianqi", ZH, "帮我查询北京的天气预报", ["mcp__tianqi__get_forecast"]),
    ("tianqi", ZH, "我想预订火车票", ["mcp__tianqi__book_train"]),
    ("tianqi", ZH, "播放音乐", []),            # play music
    ("eunhaeng", KO, "내 계좌 잔액을 알려줘", ["mcp__eunhaeng__get_balance"]),
    ("eunhaeng", KO, "계좌 이체 해줘", ["mcp__eunhaeng__transfer_money"]),
    ("eunhaeng", KO, "음악 틀어줘", []),
    ("broker", RU, "покажи мой портфель", ["mcp__broker__get_portfolio"]),
    ("broker", RU, "закажи пиццу", []),        # order a pizza
])
def test_unicode_variant_on_natural_sentences(name, tools, query, expected):
    ins = catalog(name, tools)
    assert found(ins, "unicode", query) == expected
    # The reference reads no word in these queries and says so in one line.
    ex = explain(ins, "reference", query)
    assert found(ins, "reference", query) == [] and ex.tokens == ()
    assert ex.empty_reason() == ("the query has no ASCII word ([A-Za-z0-9]+), the only words the reference's "
                                 "tokenizer reads (docs/reference.md §7.1), so nothing is searched and the result is empty; the "
                                 "unicode variant reads other scripts")


def test_unicode_gate_is_a_known_term():
    ins = catalog("hourei", JA)
    ex = explain(ins, "unicode", "法令を調べて")
    # Particle bigrams no tool contains are ignored, so they cannot become the gate term.
    assert ex.ignored == (("べて", "in no tool"), ("て", "in no tool"))
    assert (ex.gate, ex.gate_df) == ("令を", 1)
    assert explain(catalog("broker", RU), "unicode", "покажи мой портфель").ignored == (
        ("покаж", "in no tool"), ("мо", "in no tool"))
    # Japanese sample: the one natural sentence of its query file is found now.
    jp = Inspector(load_source(SAMPLES / "japanese.yaml"))
    assert found(jp, "unicode", "東京から新大阪までの経路を検索") == ["mcp__norikae__search_routes"]
    assert found(jp, "unicode", "天気予報") == [] and found(jp, "unicode", "ホテル 予約") == []


# --- the agent variant on a hand-made catalog -------------------------------------------------------

AGENT = {"name": "agent", "servers": [
    {"name": "chat", "tools": [
        {"name": "post_message", "description": "Post a message to a channel."},
        {"name": "update_message", "description": "Edit a message that was sent earlier."},
        {"name": "list_channels", "description": "List the channels of the workspace."}]},
    {"name": "editor", "tools": [
        {"name": "spawnPointLight", "description": "Place a light in the level."},
        {"name": "getLevelInfo", "description": "Describe the open level."}]},
    {"name": "files", "tools": [
        {"name": "read_text_file", "description": "Read a file as text."},
        {"name": "write_file", "description": "Write a file."}]}]}


@pytest.fixture(scope="module")
def agent_catalog() -> Inspector:
    return Inspector(load_text(yaml.safe_dump(AGENT), "agent.yaml"))


@pytest.mark.parametrize("query, reference, plain, agent", [
    ("How do I post a message to the #releases channel?", [],
     ["mcp__chat__post_message", "mcp__chat__list_channels", "mcp__chat__update_message",
      "mcp__editor__spawnPointLight", "mcp__editor__getLevelInfo"],
     ["mcp__chat__post_message"]),
    ("spawn point light", [], ["mcp__editor__spawnPointLight"], ["mcp__editor__spawnPointLight"]),
    ("level info", [], ["mcp__editor__getLevelInfo", "mcp__editor__spawnPointLight"],
     ["mcp__editor__getLevelInfo", "mcp__editor__spawnPointLight"]),
    ("read config/settings.yaml", [], ["mcp__files__read_text_file"], ["mcp__files__read_text_file"]),
    ("order a pizza", [], ["mcp__chat__post_message", "mcp__files__write_file", "mcp__editor__spawnPointLight",
                           "mcp__files__read_text_file", "mcp__chat__update_message"], []),
    ("pizza message", [], ["mcp__chat__post_message", "mcp__chat__update_message"], []),
])
def test_agent_variant(agent_catalog, query, reference, plain, agent):
    assert found(agent_catalog, "reference", query) == reference
    assert found(agent_catalog, "plain-bm25", query) == plain
    assert found(agent_catalog, "agent", query) == agent


def test_agent_variant_explains_what_it_ignored_and_excluded(agent_catalog):
    ex = explain(agent_catalog, "agent", "How do I post a message to the #releases channel?")
    assert ex.ignored == (("how", "stop word"), ("do", "stop word"), ("i", "stop word"), ("a", "stop word"),
                          ("to", "stop word"), ("the", "stop word"), ("releas", "argument value in no tool"))
    assert [t.stem for t in ex.terms] == ["post", "messag", "channel"]
    assert dict(ex.excluded) == {"idf-share": 2} and not ex.gate_required
    assert ex.best_excluded.reason == "holds 29% of the answerable terms' IDF; needs 40%"
    ex = explain(agent_catalog, "agent", "pizza message")
    assert dict(ex.excluded) == {"known-share": 2}
    assert ex.best_excluded.reason.startswith("the query's words that some tool contains carry 30% of its IDF; "
                                              "needs 60%")


# --- the shipped agent-style query files -------------------------------------------------------------

@pytest.fixture(scope="module")
def agent_evaluations() -> dict:
    return {name: evaluate(Inspector(load_source(SAMPLES / f"{name}.yaml")),
                           load_queries(QUERIES / f"{name}-agent.yaml"))
            for name in ("team-workspace", "unreal-editor")}


def counts(ev, variant):
    """(queries of positive tasks with an expected tool in their top 5, of all such queries,
    nonsense queries that returned nothing, of all nonsense queries, nonsense tasks all empty)."""
    result = ev.variant(variant)
    positive = [t for t in result.tasks if not t.task.abstention]
    nonsense = [t for t in result.tasks if t.task.abstention]
    return (sum(h for t in positive for h in t.query_hits), sum(len(t.task.queries) for t in positive),
            sum(h for t in nonsense for h in t.query_hits), sum(len(t.task.queries) for t in nonsense),
            result.metrics.abstained)


@pytest.mark.parametrize("name, expected", [
    ("team-workspace", {"reference": (40, 77, 19, 20, 9), "no-gate": (63, 77, 3, 20, 0),
                        "no-coverage": (41, 77, 19, 20, 9), "plain-bm25": (66, 77, 3, 20, 0),
                        "unicode": (40, 77, 19, 20, 9), "name-substring": (40, 77, 19, 20, 9),
                        "agent": (58, 77, 19, 20, 9), "evidence": (64, 77, 15, 20, 5),
                        "anthropic-bm25": (67, 77, 0, 20, 0), "anthropic-regex": (2, 77, 20, 20, 10),
                        "hermes-name-bonus": (41, 77, 19, 20, 9)}),
    ("unreal-editor", {"reference": (28, 51, 20, 20, 10), "no-gate": (44, 51, 5, 20, 0),
                       "no-coverage": (28, 51, 20, 20, 10), "plain-bm25": (46, 51, 4, 20, 0),
                       "unicode": (28, 51, 20, 20, 10), "name-substring": (28, 51, 20, 20, 10),
                       "agent": (40, 51, 19, 20, 9), "evidence": (46, 51, 18, 20, 8),
                       "anthropic-bm25": (46, 51, 0, 20, 0), "anthropic-regex": (1, 51, 20, 20, 10),
                       "hermes-name-bonus": (28, 51, 20, 20, 10)}),
])
def test_agent_query_files_every_variant(agent_evaluations, name, expected):
    ev = agent_evaluations[name]
    assert [v.name for v in ev.variants] == list(DEFAULT_VARIANTS)
    assert {v: counts(ev, v) for v in DEFAULT_VARIANTS} == expected
    agent = ev.variant("agent").metrics
    assert agent.query_recall_at_k >= 0.70 and agent.nonsense_queries_empty >= 0.95
    assert agent.nonsense_queries_empty > ev.variant("plain-bm25").metrics.nonsense_queries_empty + 0.7
    assert agent.query_recall_at_k > ev.variant("reference").metrics.query_recall_at_k + 0.2


def test_agent_query_files_task_figures(agent_evaluations):
    tw, ue = agent_evaluations["team-workspace"], agent_evaluations["unreal-editor"]
    assert (tw.variant("agent").metrics.recall_at_k, tw.variant("reference").metrics.recall_at_k) == (1.0, 29 / 30)
    assert (ue.variant("agent").metrics.recall_at_k, ue.variant("reference").metrics.recall_at_k) == (24 / 25, 23 / 25)
    assert tw.variant("agent").metrics.abstention_rate == 0.9 and ue.variant("plain-bm25").metrics.abstention_rate == 0
    failed = [t.task.id for t in tw.variant("agent").tasks if t.task.abstention and not t.correct]
    assert failed == ["none-email"]


# --- CLI -----------------------------------------------------------------------------------------

@pytest.fixture()
def agent_file(tmp_path) -> Path:
    return write_yaml(tmp_path / "agent.yaml", AGENT)


def test_cli_search_variant(agent_file, agent_catalog):
    query = "How do I post a message to the #releases channel?"
    result = run_cli("search", agent_file, "-q", query, "--variant", "agent")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["variant: what-if: agent (the model gets the reference search)", f"query: {query}",
                         "  1. mcp__chat__post_message  [5.912]  Post a message to a channel."]
    result = run_cli("search", agent_file, "-q", query, "--variant", "agent", "--json")
    bridge = agent_catalog.bridge(parse_config({}), variant_options("agent"))
    assert result.stdout == to_wire(bridge.tool_search({"queries": [query]})) + "\n"
    assert result.stderr == "toolsearch: note: variant: what-if: agent (the model gets the reference search)\n"
    # The default is the reference, unlabeled and unchanged.
    result = run_cli("search", agent_file, "-q", query)
    assert result.stdout.splitlines()[:3] == [f"query: {query}", "  no matches",
                                              "  available source: chat (3 tools)"]


def test_cli_bad_variant_is_one_line(agent_file):
    result = run_cli("search", agent_file, "-q", "x", "--variant", "fuzzy")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "unknown variant 'fuzzy' in 'fuzzy'" in result.stderr


@pytest.mark.parametrize("query", [".*", "?!", "\u202e\x07"])
def test_cli_explain_query_without_any_word(query):
    # Punctuation or control characters alone hold no word in any script: the line says the
    # tokenizer found none and does not point to the unicode variant, which would find none either.
    out = run_cli("explain", "sample_catalogs/team-workspace.yaml", "-q", query).stdout.splitlines()
    assert out[1:3] == ["tokens: (none)",
                        "nothing found: the tokenizer finds no word in the query, so nothing is searched"]
    unicode_out = run_cli("explain", "sample_catalogs/team-workspace.yaml", "-q", query, "--variant", "unicode")
    assert "nothing found: the tokenizer finds no word in the query, so nothing is searched" in \
        unicode_out.stdout.splitlines()


def test_cli_explain_non_ascii_and_variants(tmp_path):
    path = write_yaml(tmp_path / "hourei.yaml", {"name": "hourei", "servers": [
        {"name": "hourei", "tools": [{"name": n, "description": d} for n, d in JA]}]})
    out = run_cli("explain", path, "-q", "法令を調べて").stdout.splitlines()
    assert out[:5] == [
        "query: 法令を調べて", "tokens: (none)",
        "nothing found: the query has no ASCII word ([A-Za-z0-9]+), the only words the reference's tokenizer reads "
        "(docs/reference.md §7.1), so nothing is searched and the result is empty; the unicode variant reads other scripts",
        "gate term: none; answerable terms: 0; required coverage: 1", "excluded: none"]
    out = run_cli("explain", path, "-q", "法令を調べて", "--variant", "unicode").stdout.splitlines()
    assert out[0] == "variant: what-if: unicode (the model gets the reference search)"
    assert out[3] == "ignored: べて (in no tool), て (in no tool)"
    assert "gate term: 令を (in 1 tool); answerable terms: 9; required coverage: 5" in out
    data = json.loads(run_cli("explain", path, "-q", "法令を調べて", "--variant", "unicode", "--json").stdout)
    assert (data["variant"], data["what_if"], data["gate"], data["gate_df"], data["matches"]) == (
        "unicode", True, "令を", 1, ["mcp__hourei__search_laws"])
    assert data["ignored"] == [{"term": "べて", "why": "in no tool"}, {"term": "て", "why": "in no tool"}]


def test_cli_eval_compares_every_variant(agent_file, tmp_path):
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "post", "queries": ["How do I post a message to the #releases channel?", "post message"],
         "expected": ["mcp__chat__post_message"]},
        {"id": "pizza", "queries": ["order a pizza"], "expected": []}]})
    out = run_cli("eval", agent_file, queries).stdout.splitlines()
    rows = {line.split()[0]: line.split() for line in out[4:4 + len(DEFAULT_VARIANTS)]}
    assert list(rows) == list(DEFAULT_VARIANTS)
    # variant, recall@1, @5, @limit, MRR, abstention, query recall@5, nonsense queries empty, ...
    assert rows["reference"][1:8] == ["1.000", "1.000", "1.000", "1.000", "1.000", "0.500", "1.000"]
    assert rows["plain-bm25"][1:8] == ["1.000", "1.000", "1.000", "1.000", "0.000", "1.000", "0.000"]
    assert rows["agent"][1:8] == ["1.000", "1.000", "1.000", "1.000", "1.000", "1.000", "1.000"]


# --- the Search page ------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def open_search(catalog_name: str, queries: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = catalog_name
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value(queries).run()
    assert not at.exception, at.exception
    return at


def test_page_why_line_and_one_click_explanation():
    at = open_search("team-workspace", "send a slack message\n法令を調べて")
    texts = [t.value for t in at.text]
    assert "Why: Gate term 'send' in 2 tools; excluded: 125 by the gate, 0 by the coverage floor; best excluded: " \
           "mcp__slack__slack_schedule_message (score 7.607): lacks the gate term 'send'." in texts
    assert "Why: The query has no ASCII word ([A-Za-z0-9]+), the only words the reference's tokenizer reads " \
           "(docs/reference.md §7.1), so nothing is searched and the result is empty; the unicode variant reads other scripts." in texts
    at.session_state["explain_1_open"] = True  # as a click on each expander does (drawn only when open)
    at.session_state["explain_2_open"] = True
    at.run()
    panel = at.expander[0]
    assert panel.label == "Full explanation of query 1"
    cands = next(t for t in literal_tables(panel).values() if "reason" in t.columns)
    assert list(cands["tool"])[:3] == ["mcp__slack__slack_update_message", "mcp__grafana__update_dashboard",
                                       "mcp__slack__slack_schedule_message"]
    assert list(cands["admitted"])[:3] == ["yes", "yes", "no: gate"]
    assert {m.label: m.value for m in panel.metric}["Gate term"] == "send"
    assert "Nothing found: the query has no ASCII word" in at.expander[1].text[1].value


def test_quality_and_sessions_pages_name_each_variants_source():
    """The Quality and Sessions pages' variant pickers say where a variant comes from, as the
    Search page's picker does: in a caption under the picker (its chips are too narrow for the
    source beside each name at 1024 px, and the name alone is what a chip shows)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    options = at.multiselect(key="quality_variants").options
    assert options[0] == "reference" and "anthropic-bm25" in options and "unicode+no-gate" in options
    captions = [c.value for c in at.caption]
    sources = next(c for c in captions if c.startswith("Where they come from: "))
    assert "anthropic-bm25: after Anthropic's tool search (BM25)" in sources
    assert "hermes-name-bonus: name-coverage bonus proposed for Hermes Agent" in sources
    at.switch_page("toolsearch/ui/sessions.py").run()
    assert not at.exception, at.exception
    assert at.multiselect(key="sessions_variants").options[-3:] == ["anthropic-bm25", "anthropic-regex",
                                                                     "hermes-name-bonus"]
    assert ("Where they come from: anthropic-bm25: after Anthropic's tool search (BM25); anthropic-regex: after "
            "Anthropic's tool search (regex); hermes-name-bonus: name-coverage bonus proposed for Hermes Agent; "
            "the others are switches of the reference.") in [c.value for c in at.caption]


def test_variant_sources_names_each_source_once_in_order():
    from toolsearch.analysis.variants import variant_sources

    assert variant_sources(["reference", "no-gate"]) == ""
    assert variant_sources(["semantic", "anthropic-bm25+semantic", "unicode+no-gate"]) == (
        "semantic: sentence embeddings, optional extra; anthropic-bm25: after Anthropic's tool search (BM25)")


def test_page_variant_picker_labels_what_ifs():
    at = open_search("team-workspace", "send a slack message")
    picker = at.selectbox(key="search_variant")
    assert picker.value == "reference" and picker.options[0] == "reference · what the model gets"
    # The variants after another harness's search, proposed upstream, or optional name their source.
    assert picker.options[-4:] == [
        "anthropic-bm25 · what-if · after Anthropic's tool search (BM25)",
        "anthropic-regex · what-if · after Anthropic's tool search (regex)",
        "hermes-name-bonus · what-if · name-coverage bonus proposed for Hermes Agent",
        "semantic · what-if · sentence embeddings, optional extra"]
    assert picker.options[1] == "no-gate · what-if"
    assert not any("What-if" in w.value for w in at.warning)
    assert [t.label for t in at.tabs] == ["Results", "Matches per query", "Response (exact JSON)",
                                       "Side by side", "Describe", "Call validation"]
    picker.set_value("agent").run()
    assert not at.exception
    assert any(w.value.startswith("What-if: these results come from the agent variant.") for w in at.warning)
    assert at.tabs[2].label == "What-if response (JSON)"
    ins = Inspector(load_source(SAMPLES / "team-workspace.yaml"))
    expected = ins.bridge(parse_config({}), variant_options("agent")).tool_search({"queries": ["send a slack message"]})
    assert at.tabs[2].code[0].value == to_wire(expected)
    table = next(t for t in literal_tables(at.tabs[1]).values() if "description (clipped)" in t.columns)
    assert list(table["tool"]) == ["mcp__slack__slack_update_message", "mcp__slack__slack_schedule_message",
                                   "mcp__slack__slack_get_thread_replies", "mcp__slack__slack_search_messages",
                                   "mcp__slack__slack_post_message"]
    assert "Why: Gate term 'send' in 2 tools (not required by this variant); excluded: 16 by the IDF share; " \
           "best excluded: mcp__slack__slack_list_users (score 4.664): holds 27% of the answerable terms' IDF; " \
           "needs 40%." in [t.value for t in at.text]


SHARING_QUERIES = ["send a slack message", "create issue", "zebra", "list", "get_file_contents", "delete the dashboard",
                   "post message channel", "search logs error", "mcp__github__create_issue", "repo"]


@pytest.mark.parametrize("catalog", ["team-workspace", "hard-cases"])
def test_variants_share_the_index_statistics_and_answer_as_alone(catalog):
    """Variants that differ only on the query side share one index's BM25 statistics (built once),
    and every variant answers every query exactly as an index built alone does."""
    inspector = inspector_of([ROOT / "sample_catalogs" / f"{catalog}.yaml"], "prefixed")
    config = parse_config({})
    bridges = {name: inspector.bridge(config, variant_options(name)) for name in DEFAULT_VARIANTS}
    reference = bridges["reference"].index
    for name, bridge in bridges.items():
        options = variant_options(name)
        alone = inspector_of([ROOT / "sample_catalogs" / f"{catalog}.yaml"], "prefixed").bridge(config, options)
        assert alone.index._bm25 is not bridge.index._bm25
        for query in SHARING_QUERIES:
            assert bridge.index.search(query, 10) == alone.index.search(query, 10), (name, query)
        same_documents = bridge.index.document_key == reference.document_key
        assert (bridge.index._bm25 is reference._bm25) == same_documents, name
    shared = {name for name, b in bridges.items() if b.index._bm25 is reference._bm25}
    assert {"reference", "no-gate", "no-coverage", "plain-bm25", "name-substring"} <= shared
    assert "unicode" not in shared and "agent" not in shared


def test_combined_variants_later_part_wins_and_the_rest_add_up():
    """docs/search.md: in ``agent+evidence`` evidence's field weights are searched, and agent's
    IDF-share floors stay beside evidence's abstention rule; tuning covers both parts."""
    from toolsearch.analysis.variants import tunable_grid, variant_options

    agent, evidence, both = (variant_options(n) for n in ("agent", "evidence", "agent+evidence"))
    assert agent.field_weights != evidence.field_weights
    assert both.field_weights == evidence.field_weights
    assert both.min_idf_share == agent.min_idf_share and both.min_idf_share != evidence.min_idf_share
    assert both.min_best_share == evidence.min_best_share
    assert set(tunable_grid("agent+evidence")) == set(tunable_grid("agent")) | set(tunable_grid("evidence"))
    assert "agent's IDF-share floors stay beside evidence's abstention rule" in " ".join(
        (Path(__file__).parents[1] / "docs" / "search.md").read_text(encoding="utf-8").split())


@pytest.mark.parametrize("name, part, keys", [
    ("anthropic-regex+evidence", "evidence", "gate, coverage, stop_words"),
    ("evidence+anthropic-regex", "evidence", "gate, coverage, stop_words"),
    ("anthropic-bm25+anthropic-regex", "anthropic-bm25", "gate, coverage, index_param_descriptions, never_empty"),
    ("unicode+anthropic-regex", "unicode", "tokenizer, unknown_terms"),
    ("semantic+anthropic-bm25", "anthropic-bm25", "never_empty"),
    ("agent+semantic", "agent", "min_known_share, min_idf_share"),
    ("semantic+evidence", "evidence", "min_best_share, min_best_terms"),
    ("name-substring+semantic", "name-substring", "name_substring_fallback"),
])
def test_a_part_the_search_does_not_read_is_refused(name, part, keys):
    """The regex search reads only the pattern and the result cap, and the semantic ranker none of
    the words search's admission rules: such a part changed nothing, while the label named it and
    tuning reported its parameters as tuned."""
    with pytest.raises(VariantError, match=rf"'{re.escape(name)}': .* does not read {part}'s switch(es)? {keys}.*; drop {part}$"):
        variant_options(name)


@pytest.mark.parametrize("name", ["reference+anthropic-regex", "anthropic-regex+anthropic-regex", "semantic+no-gate",
                                  "semantic+plain-bm25", "semantic+unicode", "agent+evidence",
                                  "anthropic-bm25+hermes-name-bonus"])
def test_parts_the_search_reads_still_combine(name):
    variant_options(name)


def test_cli_eval_refuses_a_part_the_search_does_not_read():
    result = run_cli("eval", "sample_catalogs/team-workspace.yaml", "sample_catalogs/queries/team-workspace.yaml",
                     "--folds", "3", "--variant", "anthropic-regex+evidence")
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert "anthropic-regex matches the query as a pattern and does not read evidence's switches" in result.stderr


def test_cli_variant_typed_with_blanks_is_the_variant_it_names():
    """' agent' and 'agent ' searched as agent but were shown, and scored, as variants of their own:
    three rows that read the same in eval's table."""
    result = run_cli("eval", "sample_catalogs/team-workspace.yaml", "sample_catalogs/queries/team-workspace.yaml",
                     "--json", "--variant", "agent", "--variant", " agent", "--variant", "agent ",
                     "--variant", " no-gate + unicode")
    assert result.returncode == 0, result.stderr
    assert [v["name"] for v in json.loads(result.stdout)["variants"]] == ["agent", "no-gate+unicode"]
    result = run_cli("search", "sample_catalogs/team-workspace.yaml", "-q", "send slack message", "--variant", " agent")
    assert result.returncode == 0 and result.stdout.splitlines()[0].startswith("variant: what-if: agent ("), result.stdout


def test_cli_search_empty_names_a_one_tool_source_in_the_singular():
    result = run_cli("search", "sample_catalogs/team-workspace.yaml", "-q", "fly to the moon")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  available source: core (1 tool)" in lines and "  available source: slack (15 tools)" in lines, lines



def test_a_part_named_twice_names_its_source_once():
    assert variant_label("semantic+semantic") == "what-if: semantic+semantic · sentence embeddings, optional extra"
    assert variant_label("anthropic-bm25+no-gate+anthropic-bm25") == (
        "what-if: anthropic-bm25+no-gate+anthropic-bm25 · after Anthropic's tool search (BM25)")


def test_regex_why_says_the_order_the_matches_are_in(tmp_path):
    """The regex result is in wire-name order (the session's tool list), not the order of the
    catalog file; the 'why' line said "catalog order"."""
    catalog = write_yaml(tmp_path / "c.yaml", {"servers": [
        {"name": "zeta", "tools": [{"name": "report_a", "description": "x", "inputSchema": {"type": "object"}}]},
        {"name": "alpha", "tools": [{"name": "report_b", "description": "x", "inputSchema": {"type": "object"}}]}]})
    result = run_cli("search", catalog, "-q", "report", "--variant", "anthropic-regex")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2].startswith("  1. mcp__alpha__report_b") and lines[3].startswith("  2. mcp__zeta__report_a"), lines
    index = Inspector(load_source(str(catalog))).bridge(parse_config({}), variant_options("anthropic-regex")).index
    assert index.regex_scan("report", 5).why() == ("regex mode: tools whose name matches the pattern first, then "
                                                   "those whose description or parameters match, each by wire name")


def test_cli_explain_refuses_a_second_query():
    # search -q is repeatable; explain explains one query, so a second -q is refused in one line
    # instead of silently replacing the first.
    result = run_cli("explain", "sample_catalogs/team-workspace.yaml", "-q", "create issue", "-q", "zebra")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines()[-1] == (
        "toolsearch explain: error: argument -q: explain takes one query, and -q was given again "
        "(run explain once per query; search -q takes several)")
    assert run_cli("explain", "sample_catalogs/team-workspace.yaml", "-q", "zebra").returncode == 0
