"""A harness ``config.yaml`` holds its MCP servers' secrets (``mcp_servers``: env values, a token
argument, URL credentials) beside the ``tools.tool_search`` block. A warning about that block quotes
the value it could not use; where that value is one of the servers' secrets (a token pasted into the
wrong place), the warning shows it masked, on stderr and in the HTML report, in every command that
reads ``--config`` (and ``check --baseline-config``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli_process, write_yaml
from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
CATALOG = str(ROOT / "sample_catalogs" / "five-servers.yaml")
TOKEN = "Orchid-secret-7731"
DSN_PASSWORD = "Pw%40Heron%2F9924"  # in a connection string; the program reads it as Pw@Heron/9924
MASK = C.SECRET_MASK


def _config(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "config.yaml", {
        "mcp_servers": {"gh": {"command": "npx", "args": ["-y", "server", "--token", TOKEN,
                                                          f"postgresql://app:{DSN_PASSWORD}@db/app"],
                               "env": {"GITHUB_TOKEN": TOKEN}}},
        "tools": {"tool_search": {"threshold_pct": TOKEN, "listing_max_tokens": [TOKEN], "enabled": "Pw@Heron/9924",
                                  TOKEN: 1}}})


@pytest.mark.parametrize("command", [
    ["plan", CATALOG], ["recommend", CATALOG, "--context-lengths", "32k", "--goal", "names", "--yaml"],
    ["sessions", str(ROOT / "sample_sessions" / "state.db"), "--catalog", CATALOG],
    ["harnesses", CATALOG, "--context-lengths", "32k"], ["diff", CATALOG, CATALOG],
])
def test_a_warning_about_the_settings_never_shows_a_secret_of_the_same_file(tmp_path, command) -> None:
    config = _config(tmp_path)
    done = run_cli_process(*command, "--config", config)
    assert "Orchid" not in done.stdout + done.stderr and "Heron" not in done.stdout + done.stderr, done.stderr
    assert f"tools.tool_search.threshold_pct: '{MASK}' is not a number, so the default 5% is used" in done.stderr
    assert f"tools.tool_search.enabled: '{MASK}' is not auto, on or off, so it was read as 'auto'" in done.stderr  # decoded from the URL


def test_the_report_and_the_baseline_config_never_show_a_secret_of_the_same_file(tmp_path) -> None:
    config = _config(tmp_path)
    out = tmp_path / "review.html"
    done = run_cli_process("report", CATALOG, "--config", config, "-o", out)
    assert done.returncode == 0, done.stderr
    shown = done.stdout + done.stderr + out.read_text(encoding="utf-8")
    assert "Orchid" not in shown and "Heron" not in shown
    assert f"tools.tool_search.listing_max_tokens: [&#x27;{MASK}&#x27;] is not a whole number, so the default 4,000 tokens is used" in shown
    done = run_cli_process("check", CATALOG, "--baseline", CATALOG, "--baseline-config", config,
                           "--context-lengths", "32k", "--goal", "names")
    assert "Orchid" not in done.stdout + done.stderr and "Heron" not in done.stdout + done.stderr
    assert f"--baseline-config: {config}: line " in done.stderr


def test_a_provider_key_of_the_same_file_is_a_secret_too(tmp_path) -> None:
    """Hermes' ``config.yaml`` also holds the model providers' keys (``model.api_key``,
    ``providers.*.api_key``…): a value under a key that names a secret is one, with no server
    configured; a ``${VAR}`` there names no secret, and other values stay as written."""
    key = "Kestrel-provider-5518"
    config = write_yaml(tmp_path / "config.yaml", {
        "model": {"default": "gpt-5", "api_key": "${OPENAI_API_KEY}"},
        "providers": {"openrouter": {"api_key": key}},
        "tools": {"tool_search": {"threshold_pct": key, "listing": "${OPENAI_API_KEY}", "enabled": "gpt-5"}}})
    out = tmp_path / "review.html"
    for done in (run_cli_process("plan", CATALOG, "--config", config),
                 run_cli_process("report", CATALOG, "--config", config, "-o", out)):
        assert done.returncode == 0, done.stderr
        assert "Kestrel" not in done.stdout + done.stderr, done.stderr
        assert f"tools.tool_search.threshold_pct: '{MASK}' is not a number, so the default 5% is used" in done.stderr
        assert "tools.tool_search.listing: '${OPENAI_API_KEY}' is not auto" in done.stderr
        assert "tools.tool_search.enabled: 'gpt-5' is not auto" in done.stderr
    assert "Kestrel" not in out.read_text(encoding="utf-8")


def test_a_provider_key_written_as_a_number_is_a_secret_too(tmp_path) -> None:
    """YAML reads an unquoted key of digits (``api_key: 84736251``) as a number: it is a secret all
    the same, so a warning that quotes the same digits masks them."""
    config = tmp_path / "config.yaml"
    config.write_text("providers:\n  bank:\n    pin: 84736251\n"
                      "tools:\n  tool_search:\n    search_default_limit: 84736251\n", encoding="utf-8")
    out = tmp_path / "review.html"
    for done in (run_cli_process("plan", CATALOG, "--config", config),
                 run_cli_process("report", CATALOG, "--config", config, "-o", out)):
        assert done.returncode == 0, done.stderr
        assert "84736251" not in done.stdout + done.stderr, done.stderr
        assert f"tools.tool_search.search_default_limit: {MASK} is outside 1..25, so it was clamped to 25" in done.stderr
    assert "84736251" not in out.read_text(encoding="utf-8")


def test_a_provider_url_credential_of_the_same_file_is_a_secret_too(tmp_path) -> None:
    """A provider's ``base_url`` with a password or a key in its query holds a secret under a key
    that names none; it is read as an MCP config's URL is (its password and query values), so a
    warning that quotes the same value masks it. The rest of the file stays as written."""
    password, query = "Plover-pass-4417", "Tern-query-8823"
    config = write_yaml(tmp_path / "config.yaml", {
        "model": {"default": "gpt-5", "base_url": f"https://team:{password}@llm.example.com/v1?key={query}"},
        "tools": {"tool_search": {"threshold_pct": password, "listing": query, "enabled": "gpt-5"}}})
    out = tmp_path / "review.html"
    for done in (run_cli_process("plan", CATALOG, "--config", config),
                 run_cli_process("report", CATALOG, "--config", config, "-o", out)):
        assert done.returncode == 0, done.stderr
        assert "Plover" not in done.stdout + done.stderr and "Tern" not in done.stdout + done.stderr, done.stderr
        assert f"tools.tool_search.threshold_pct: '{MASK}' is not a number, so the default 5% is used" in done.stderr
        assert f"tools.tool_search.listing: '{MASK}' is not auto, on or off, so it was read as 'auto'" in done.stderr
        assert "tools.tool_search.enabled: 'gpt-5' is not auto" in done.stderr
    shown = out.read_text(encoding="utf-8")
    assert "Plover" not in shown and "Tern" not in shown
