"""Secret option values that were shown, and the one rule for a name that says secret.

* ``--password -hunter`` (small letters after a dash) and ``--token --verbose``: a program reads the
  word after an option that takes a value as that value, whatever it looks like; they were shown
  because they have the shape of an option. ``--`` and an option whose own secret is read
  (``-u admin:pw``) are still not taken.
* One-letter options take a secret only in the programs where that is well known
  (:data:`toolsearch.engine.secrets.PROGRAM_SECRET_OPTIONS`): the MySQL and MariaDB clients' ``-p``
  glued to the password (``mysql -uroot -pS3cret shop``), ``sshpass -p`` and ``redis-cli -a`` with
  the next word (``sshpass -p -Xy9…``). ``-p`` elsewhere (``psql -p 5432``, ``node server -p8080``)
  is shown.
* A name said secret by one rule for config keys and recorded call arguments and by another for
  command-line options, variables, headers and JSON keys in arguments (``--key x`` masked where
  ``{"key": x}`` was not, ``{"pin": x}`` masked where ``--pin x`` was not). One rule
  (:func:`toolsearch.engine.secrets.secret_key_name`) now reads a name on every surface.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from conftest import run_cli_process, write_json

from toolsearch.engine import constants as C

ROOT = Path(__file__).resolve().parent.parent
MASK = C.SECRET_MASK
PY = sys.executable

MYSQL_PW = "MyS3cretPw-771"
SSHPASS_PW = "-Xy9kQ2w8vT"
REDIS_PW = "R3disPw-9921"
CONFIG = {"mcpServers": {
    "api": {"command": "npx", "args": ["-y", "api-server", "--password", "-hunter", "--token", "--verbose", "--",
                                       "--auth", "-u", "admin:AuthPw-4410"]},
    "db": {"command": "/usr/bin/mysql", "args": ["-uroot", f"-p{MYSQL_PW}", "shop"]},
    "ssh": {"command": "sshpass", "args": ["-p", SSHPASS_PW, "ssh", "-p", "2222", "host"]},
    "cache": {"command": "bash", "args": ["-lc", f"redis-cli -a {REDIS_PW} -p 6380 ping && psql -p 5432 shop"]},
    "web": {"command": "node", "args": ["server.js", "-p8080", "-p", "9090"]}}}
SHOWN = {
    "api": f"npx -y api-server --password {MASK} --token {MASK} -- --auth -u admin:{MASK}",
    "db": f"/usr/bin/mysql -uroot -p{MASK} shop",
    "ssh": f"sshpass -p {MASK} ssh -p 2222 host",
    "cache": f"bash -lc 'redis-cli -a {MASK} -p 6380 ping && psql -p 5432 shop'",
    "web": "node server.js -p8080 -p 9090"}
SECRETS = ["-hunter", "--verbose", "AuthPw-4410", MYSQL_PW, SSHPASS_PW, REDIS_PW]


def test_the_launch_confirmation_masks_them_and_keeps_ports() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "toolsearch" / "ui" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(CONFIG).encode(), "application/json"))
    at.run()
    at.button(key="live_connect").click().run()
    assert not at.exception, at.exception
    codes = [c.value for c in at.code if c.language == "bash"]
    assert codes == list(SHOWN.values())
    page = "\n".join([*codes, *(t.value for t in at.text), *(m.value for m in at.markdown),
                      *(str(df.value) for df in at.dataframe)])
    assert not [s for s in SECRETS if s in page.replace(f"--token {MASK}", "")]


def test_the_config_views_and_the_secrets_of_each_server() -> None:
    from toolsearch.live.mcpconfig import parse_config_data

    specs = {spec.name: spec for spec in parse_config_data(CONFIG, "mcp.json").servers}
    for name, shown in SHOWN.items():
        assert specs[name].launch_preview()["command_line"] == shown
        redacted = specs[name].redacted()
        assert [redacted["command"], *redacted["args"]] == shlex.split(shown)
    assert {"-hunter", "--verbose", "AuthPw-4410"} <= set(specs["api"].own_secrets())
    assert MYSQL_PW in specs["db"].own_secrets() and SSHPASS_PW in specs["ssh"].own_secrets()
    assert REDIS_PW in specs["cache"].own_secrets()
    assert not {"2222", "6380", "5432", "8080", "9090", "-p8080"} & {
        v for spec in specs.values() for v in spec.own_secrets()}
    # a whole command line in `command`, as in `args`
    (whole,) = parse_config_data({"mcpServers": {"db": {"command": f"mysql -uroot -p{MYSQL_PW} shop"}}},
                                 "mcp.json").servers
    assert whole.redacted()["command"] == f"mysql -uroot -p{MASK} shop" and MYSQL_PW in whole.own_secrets()
    # `-p` alone asks mysql for the password: the word after it is the database
    (asks,) = parse_config_data({"mcpServers": {"db": {"command": "mysql", "args": ["-p", "shop"]}}},
                                "mcp.json").servers
    assert asks.redacted()["args"] == ["-p", "shop"]


def test_a_failing_servers_echo_in_the_snapshot_never_shows_them(tmp_path) -> None:
    # a program named mysql that prints its command line and exits, as a client that fails may
    fake = tmp_path / "mysql"
    fake.write_text(f"#!{PY}\nimport sys\nprint('started with', *sys.argv[1:], file=sys.stderr)\nsys.exit(3)\n",
                    encoding="utf-8")
    fake.chmod(0o755)
    config = write_json(tmp_path / "mcp.json", {"mcpServers": {
        "db": {"command": str(fake), "args": ["-uroot", f"-p{MYSQL_PW}", "shop", "--password", "-hunter"]}}})
    saved = tmp_path / "snap.yaml"
    done = run_cli_process("snapshot", config, "-o", saved, "--timeout", "60")
    out = done.stdout + done.stderr + saved.read_text(encoding="utf-8")
    assert MYSQL_PW not in out and "-hunter" not in out, out
    reason = yaml.safe_load(saved.read_text(encoding="utf-8"))["snapshot"]["failed"]["db"]
    assert f"started with -uroot -p{MASK} shop --password {MASK}" in reason, reason


def test_a_recorded_command_masks_them_as_a_config_does() -> None:
    from toolsearch.analysis.sessions import mask_text

    assert mask_text(f"mysql -uroot -p{MYSQL_PW} shop | psql -p 5432 shop") == f"mysql -uroot -p{MASK} shop | psql -p 5432 shop"
    assert mask_text(f"sshpass -p {SSHPASS_PW} ssh -p 2222 host") == f"sshpass -p {MASK} ssh -p 2222 host"
    assert mask_text("login --password -hunter now") == f"login --password {MASK} now"
    assert mask_text("node server.js -p8080") == "node server.js -p8080"


# --- one rule for a name that says secret --------------------------------------------------------------------

SECRET_NAMES = ["api_key", "X-Api-Key", "accessToken", "Authorization", "password", "auth", "sig", "oauth",
                "webhook_hmac", "key", "pin", "otp", "signature", "webhook_signature", "pwd", "MYSQL_PWD", "DB_PASS",
                "GITHUB_PAT", "jwt", "refresh_token", "client_secret", "private_key", "sessionKey", "cookie",
                "credentials", "PGPASSWORD", "AWS_SECRET_ACCESS_KEY", "XAPIKEY"]
OTHER_NAMES = ["author", "max_tokens", "max_token", "cache_token", "token_file", "auth_url", "no_auth", "signal",
               "config", "oauth_flow", "signature_format", "key_id", "keys", "tokenizer", "input_tokens",
               "hmac_algorithm", "sig_version", "auth_type", "AWS_ACCESS_KEY_ID", "region"]


def _surfaces(name: str, value: str, tmp_path: Path) -> dict[str, bool]:
    """Whether ``value`` under ``name`` is masked, per place a name stands."""
    from toolsearch.analysis.sessions import mask_secrets, mask_text
    from toolsearch.live.client import config_file_secrets
    from toolsearch.live.mcpconfig import mask_arguments

    harness = tmp_path / f"config-{abs(hash(name))}.yaml"
    harness.write_text(yaml.safe_dump({"model": {name: value}}), encoding="utf-8")
    found = {
        "harness config key": value in config_file_secrets(harness),
        "recorded call argument": mask_secrets({name: value})[name] == MASK,
        "command-line option": mask_arguments([f"--{name}", value]) == [f"--{name}", MASK],
        "name=value argument": value not in mask_arguments([f"{name}={value}"])[0],
        "JSON key in an argument": value not in mask_arguments([json.dumps({name: value})])[0],
        "recorded command option": value not in mask_text(f"deploy --{name} {value}"),
        "recorded assignment": value not in mask_text(f"{name}={value}"),
    }
    if "_" not in name:
        found["header line argument"] = value not in mask_arguments([f"{name}: {value}"])[0]
        found["recorded header"] = value not in mask_text(f"{name}: {value}")
    return found


@pytest.mark.parametrize("name", SECRET_NAMES + OTHER_NAMES)
def test_every_surface_reads_a_name_by_the_one_rule(name: str, tmp_path) -> None:
    from toolsearch.engine.secrets import secret_key_name

    value = "Val-q8w7e6r5"
    expected = name in SECRET_NAMES
    assert secret_key_name(name) is expected
    found = _surfaces(name, value, tmp_path)
    assert found == dict.fromkeys(found, expected)
