"""Every server of a config file masks its messages through one index of the file's secrets, built
once: each reason of a broken entry was masked against a list of every secret of the file (their
encoded forms counted), so a config whose entries each carried a secret took time in the square of
the entries (2,000 entries about 5 s of CPU, 8,000 about 100 s). Through the index, masking a text
costs about its length, and gives what masking against the list gave, byte for byte."""

from __future__ import annotations

import dataclasses
import json
import pickle
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from toolsearch.engine import constants as C
from toolsearch.engine import secrets
from toolsearch.engine.secrets import SecretIndex, scrub_text, secret_list
from toolsearch.live.mcpconfig import parse_config_data, secrets_of

# Few letters, so that secrets overlap, repeat themselves and hold one another; the mask's bullet
# and line breaks, so that masking and the secrets cut by line breaks are part of it.
_LETTERS = "ab1_-\u2022"
_SECRET = st.text(alphabet=_LETTERS, min_size=1, max_size=9)
_PIECE = st.one_of(st.text(alphabet=_LETTERS + " .=\n", max_size=6), st.sampled_from(["\n", " \n ", "\r\n", "="]))


@st.composite
def _secrets_and_text(draw: st.DrawFn) -> tuple[list[str], str]:
    """A few secrets, and a text of them and other pieces."""
    values = draw(st.lists(_SECRET, min_size=1, max_size=8, unique=True))
    return values, "".join(draw(st.lists(st.one_of(st.sampled_from(values), _PIECE), max_size=10)))


@settings(max_examples=300, deadline=None)
@given(case=_secrets_and_text())
# a secret that holds the mask appears only once another is masked ("xxxxxx" → "••••" + "y")
@example(case=(["xxxxxx", "\u2022\u2022\u2022\u2022y"], "xxxxxxy"))
@example(case=(["xxxxxxx", "\u2022\u2022\u2022\u2022yyy"], "xxxxxxxyyy"))
@example(case=(["xxxxxxx", "\u2022\u2022yy"], "xxxxxxxyy\nzz"))
# one secret inside another, and the shorter where the longer starts (masked first, longest first)
@example(case=(["abcdef", "bcdefgh", "ab1_-"], "abcdefgh ab1_- abcdef\ngh"))
def test_masking_through_the_index_is_masking_against_the_list(case: tuple[list[str], str]) -> None:
    values, text = case
    expected = scrub_text(text, values)  # in the order given: masking goes in that order
    # a few secrets are each looked for in the text; many, through the pieces of the text
    assert scrub_text(text, SecretIndex(values)) == expected
    with mock.patch.object(secrets, "_INDEXED_MIN_SECRETS", 1):
        assert scrub_text(text, SecretIndex(values)) == expected


def test_the_index_finds_the_secrets_a_text_holds_in_its_own_order() -> None:
    values = secret_list([f"sk-index-{i:05d}-abcdefgh" for i in range(100)])
    index = SecretIndex(values)
    assert len(index) == len(values) > secrets._INDEXED_MIN_SECRETS  # through the pieces
    text = "failed: sk-index-00042-abcdefgh (c2staW5kZXgtMDAwNDItYWJjZGVmZ2g=) and sk_index_00007_abcdefgh"
    # longest first: the base64 of the first with and without its padding, and the part of it that
    # stays the same inside a longer base64 text; the first as written; the second as registered in a name
    assert index.occurring(text) == ["c2staW5kZXgtMDAwNDItYWJjZGVmZ2g=", "c2staW5kZXgtMDAwNDItYWJjZGVmZ2g",
                                     "c2staW5kZXgtMDAwNDItYWJjZGVmZ2", "sk-index-00042-abcdefgh",
                                     "sk_index_00007_abcdefgh"]
    assert index.occurring("nothing secret in here") == []
    assert scrub_text(text, index) == "failed: •••• (••••) and ••••"
    assert "sk-index" not in repr(index)


def _flood(tmp_path, count: int, tag: str):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {
        f"s{i}": {"args": ["x"], "env": {"API_KEY": f"sk-{tag}-{i:06d}-abcdefgh"}} for i in range(count)}}),
        encoding="utf-8")
    return path


def test_a_config_of_many_broken_entries_builds_one_index_for_all_of_them(tmp_path, monkeypatch) -> None:
    count = 300
    config = _flood(tmp_path, count, "heron")
    built: list[int] = []
    plain_init = SecretIndex.__init__

    def counting_init(self: SecretIndex, values) -> None:
        plain_init(self, values)
        if any("sk-heron-" in value for value in self.secrets):
            built.append(len(self.secrets))

    monkeypatch.setattr(SecretIndex, "__init__", counting_init)
    secrets._secret_index.cache_clear()
    done = run_cli("plan", str(config))
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"{count} servers failed" in done.stderr
    assert "sk-heron-" not in done.stderr + done.stdout
    assert "mcpServers.s0: expected 'command'" in done.stderr
    # one index of the whole file's secrets (each entry's own values and their forms), not one per server
    assert len(built) == 1
    assert built[0] == len(secret_list(f"sk-heron-{i:06d}-abcdefgh" for i in range(count)))


def test_every_server_of_a_file_shares_its_index_and_masks_every_secret_of_the_file() -> None:
    servers = parse_config_data({"mcpServers": {f"s{i}": {"command": "npx", "env": {"API_KEY": f"Egret-secret-{i:04d}"}}
                                                for i in range(60)}}, "mcp.json").servers
    assert len({id(spec.secret_index()) for spec in servers}) == 1
    every = [f"Egret-secret-{i:04d}" for i in range(60)]
    assert servers[5].secret_values() == secret_list(every)
    assert secrets_of(servers) == set(secret_list(every))
    assert servers[5].scrub("echoed Egret-secret-0059 and RWdyZXQtc2VjcmV0LTAwMDE=") == "echoed •••• and ••••"


def test_a_server_given_a_value_its_file_does_not_hold_masks_it_too() -> None:
    servers = parse_config_data({"mcpServers": {f"s{i}": {"command": "npx", "env": {"API_KEY": f"Ibis-secret-{i:04d}"}}
                                                for i in range(3)}}, "mcp.json").servers
    changed = dataclasses.replace(servers[0], env={"API_KEY": "Ibis-changed-value"})
    assert changed.secret_index() is not servers[0].secret_index()
    assert changed.scrub("got Ibis-changed-value and Ibis-secret-0002") == f"got {C.SECRET_MASK} and {C.SECRET_MASK}"


def test_a_copied_server_keeps_the_file_secrets_without_the_index() -> None:
    servers = parse_config_data({"mcpServers": {f"s{i}": {"command": "npx", "env": {"API_KEY": f"Crane-secret-{i:04d}"}}
                                                for i in range(3)}}, "mcp.json").servers
    servers[0].secret_index()
    copy = pickle.loads(pickle.dumps(servers[0]))
    assert copy.peer_secrets == servers[0].peer_secrets
    assert "_index" not in copy.peer_secrets.__dict__
    assert copy.scrub("Crane-secret-0001") == C.SECRET_MASK
