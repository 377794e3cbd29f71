"""Secret masking that hid the wrong words, or missed the right ones.

* A command line masked by replacing the secret's text everywhere: in ``npx -y pkg --auth -y`` (a
  ``command`` written as a whole line, or a script argument) the ``-y`` of ``npx -y`` was masked with the
  value of ``--auth``, and the launch confirmation of such a command showed the secret ``-y`` in clear.
  Each word's secret is now masked in that word's own place (:func:`toolsearch.live.mcpconfig._mask_words`).
* ``--token --verbose`` masks ``--verbose`` as the token's value, and that value then hid every
  ``--verbose`` a server printed: a value that is a long option name is not searched for in free text
  (:func:`toolsearch.engine.secrets.free_text_secret`).
* ``--storage-account-key V`` and ``AZURE_STORAGE_KEY=V`` were shown: ``storage`` made any name a
  setting. It now does so only after the secret word (``--key-store``, ``--token-storage``).
* ``mysql -u root -p'quoted pw'`` and ``mysql -p"a b"`` in a recorded command were shown, as was the
  rest of a quoted value after an option or a variable (``--password 'a b c'``, ``DB_PASSWORD='x y'``).
"""

from __future__ import annotations

import pytest

from toolsearch.analysis.sessions import mask_secrets, mask_text
from toolsearch.engine import constants as C
from toolsearch.engine.secrets import (
    free_text_secret,
    mask_program_options,
    scrub_text,
    secret_key_name,
    secret_list,
    shell_words,
)
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data

MASK = C.SECRET_MASK


def _spec(entry: dict) -> object:
    (spec,) = parse_config_data({"mcpServers": {"s": entry}}, "mcp.json").servers
    return spec


# --- 1. a short dashed value: masked in its place only -----------------------------------------------------

def test_a_whole_line_command_masks_the_value_in_its_place_not_the_same_word_elsewhere() -> None:
    spec = _spec({"command": "npx -y pkg --auth -y"})
    assert spec.redacted()["command"] == f"npx -y pkg --auth {MASK}"
    assert spec.launch_preview()["command_line"] == f"'npx -y pkg --auth {MASK}'"
    assert spec.launch_preview(expanded=False)["command_line"] == f"'npx -y pkg --auth {MASK}'"


def test_arguments_and_scripts_mask_the_value_in_its_place() -> None:
    spec = _spec({"command": "npx", "args": ["-y", "pkg", "--auth", "-y"]})
    assert spec.redacted()["args"] == ["-y", "pkg", "--auth", MASK]
    assert spec.launch_preview()["command_line"] == f"npx -y pkg --auth {MASK}"
    assert mask_arguments(["-c", "npx -y pkg --auth -y"]) == ["-c", f"npx -y pkg --auth {MASK}"]
    # a script inside a script, and a value that needs quotes once masked keeps the quotes it had
    assert mask_arguments(["-c", "sh -c 'npx -y pkg --token -y'"]) == ["-c", f"sh -c 'npx -y pkg --token {MASK}'"]
    assert mask_arguments(["-c", 'curl -H "Authorization: Bearer Ab9x" -y']) == [
        "-c", f'curl -H "Authorization: {MASK}" -y']


def test_a_short_value_is_not_searched_for_in_what_a_server_prints() -> None:
    spec = _spec({"command": "npx", "args": ["-y", "pkg", "--auth", "-y"]})
    assert spec.scrub("npx -y pkg: ready") == "npx -y pkg: ready"
    assert "-y" not in secret_list(["-y"])


# --- 2. a value that is an option word: not searched for in free text --------------------------------------

def test_an_option_word_taken_as_a_value_does_not_hide_that_word_in_server_output() -> None:
    spec = _spec({"command": "npx", "args": ["pkg", "--token", "--verbose", "--verbose", "--api-key", "Ky9-Secret"]})
    assert spec.redacted()["args"] == ["pkg", "--token", MASK, "--verbose", "--api-key", MASK]
    assert spec.launch_preview()["command_line"] == f"npx pkg --token {MASK} --verbose --api-key {MASK}"
    assert spec.scrub("error: unknown option --verbose (key Ky9-Secret)") == f"error: unknown option --verbose (key {MASK})"
    assert "--verbose" not in spec.secret_values() and "Ky9-Secret" in spec.secret_values()


@pytest.mark.parametrize("value", ["--verbose", "--dry-run", "--no-color", "-y", "on", ""])
def test_values_not_searched_for_in_free_text(value: str) -> None:
    assert not free_text_secret(value)
    assert scrub_text(f"run {value} now", secret_list([value])) == f"run {value} now"


@pytest.mark.parametrize("value", ["-hunter", "--a8f3k2x9q", "--x=Secr3t", "-Xy9kQ2w8vT", "hunter2", "info"])
def test_values_still_searched_for_in_free_text(value: str) -> None:
    assert free_text_secret(value)
    assert scrub_text(f"got {value} back", secret_list([value])) == f"got {MASK} back"


# --- 3. names ending in a key word -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["--storage-account-key", "AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY", "storage_key",
                                  "--storage-key", "access-key", "private-key", "account_key", "AccountKey",
                                  "--store-password", "STORAGE_ACCESS_KEY"])
def test_names_ending_in_a_key_word_are_secret(name: str) -> None:
    assert secret_key_name(name)


@pytest.mark.parametrize("name", ["keyboard", "monkey", "hotkey", "key_count", "keys_count", "--key-store",
                                  "--token-storage", "storage", "--storage-path", "cache_key", "--no-key", "--key-id"])
def test_names_that_are_not_secret(name: str) -> None:
    assert not secret_key_name(name)


def test_storage_keys_are_masked_on_the_command_line_and_in_sessions() -> None:
    spec = _spec({"command": "npx", "args": ["az-mcp", "--storage-account-key", "StoreKey==91", "AZURE_STORAGE_KEY=Az0reKey"]})
    assert spec.redacted()["args"] == ["az-mcp", "--storage-account-key", MASK, f"AZURE_STORAGE_KEY={MASK}"]
    assert {"StoreKey==91", "Az0reKey"} <= set(spec.secret_values())
    assert mask_text("export AZURE_STORAGE_KEY=Az0reKey; az storage --account-key Acc0untKey") == (
        f"export AZURE_STORAGE_KEY={MASK}; az storage --account-key {MASK}")
    assert mask_secrets({"storage_key": "Az0reKey", "keyboard": "us"}) == {"storage_key": MASK, "keyboard": "us"}


# --- 4. quoted values in recorded commands -----------------------------------------------------------------

def test_shell_words_read_quotes_as_a_shell_does() -> None:
    text = "mysql -u root -p'quoted pw' db; ls"
    assert [(text[a:b], v) for a, b, v in shell_words(text)] == [
        ("mysql", "mysql"), ("-u", "-u"), ("root", "root"), ("-p'quoted pw'", "-pquoted pw"), ("db", "db"),
        (";", None), ("ls", "ls")]


@pytest.mark.parametrize(("command", "shown"), [
    ("mysql -u root -p'quoted pw' shop", f"mysql -u root -p{MASK} shop"),
    ('mysql -p"a b" shop', f"mysql -p{MASK} shop"),
    ("mysql '-pS3 cr3t' shop", f"mysql {MASK} shop"),
    ('mysql -p"S3\\"x y" shop', f"mysql -p{MASK} shop"),
    ("mysql -p'cut off pass\nnext line", f"mysql -p{MASK}\nnext line"),
    ("sshpass -p 'my pw' ssh -p 22 host", f"sshpass -p {MASK} ssh -p 22 host"),
    ("I can't reach mysql -pS3cret shop, it's down", f"I can't reach mysql -p{MASK} shop, it's down"),
    ("mysql -p shop; echo 'done -pX'", "mysql -p shop; echo 'done -pX'"),
])
def test_a_glued_quoted_password_is_masked_whole(command: str, shown: str) -> None:
    assert mask_program_options(command) == shown
    assert mask_text(command) == shown


@pytest.mark.parametrize(("command", "shown"), [
    ("deploy --password 'a b c' --verbose", f"deploy --password '{MASK}' --verbose"),
    ('deploy --api-key="my key value" x', f'deploy --api-key="{MASK}" x'),
    ("export DB_PASSWORD='my secret pw'", f"export DB_PASSWORD='{MASK}'"),
    ('curl -u "admin:my pw" https://x.example', f'curl -u "admin:{MASK}" https://x.example'),
    ("deploy --token --verbose 'x y'", f"deploy --token {MASK} 'x y'"),
])
def test_a_quoted_option_or_variable_value_is_masked_whole(command: str, shown: str) -> None:
    assert mask_text(command) == shown


def test_a_config_command_with_a_quoted_glued_password_is_masked_whole() -> None:
    spec = _spec({"command": "mysql -u root -p'quoted pw' shop"})
    assert spec.redacted()["command"] == f"mysql -u root -p{MASK} shop"
    assert "quoted" not in spec.launch_preview()["command_line"]
    assert "quoted pw" in spec.secret_values()


def test_a_caches_password_is_a_secret_and_its_key_is_not() -> None:
    from toolsearch.engine.secrets import secret_key_name

    # "cache" anywhere in a name made it a setting, so a Redis cache's password was shown
    assert [n for n in ("REDIS_CACHE_PASSWORD", "--cache-secret", "cache_credentials", "CACHE_AUTH")
            if not secret_key_name(n)] == []
    assert [n for n in ("--cache-key", "--cache-token", "cache_key", "cacheKey", "token_cache", "cache_ttl", "CACHE_DIR")
            if secret_key_name(n)] == []
