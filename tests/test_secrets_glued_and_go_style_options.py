"""Two command lines showed a secret in a launch preview. A glued option whose value holds a word
that names a secret (``-uadmin:SuperSecret1``, ``-H"Authorization: Bearer MySecretTok"``) was read
as a secret option's name and shown whole. And a Go-style secret option (``-apiKey``) right after a
secret option left without a value was taken as that option's dashed value, so its own value was
shown; it is now masked as either reading would have it."""

from __future__ import annotations

import json

from toolsearch.engine import constants as C
from toolsearch.live.mcpconfig import mask_arguments, parse_config_data, secret_arguments

MASK = C.SECRET_MASK


def test_a_glued_option_whose_value_names_a_secret_is_masked() -> None:
    args = ["-uadmin:SuperSecret1", "-HAuthorization: Bearer MySecretTok9", "-HX-Api-Key: KeyPassW0rd77"]
    assert mask_arguments(args) == [f"-uadmin:{MASK}", f"-HAuthorization: {MASK}", f"-HX-Api-Key: {MASK}"]
    assert set(secret_arguments(args)) >= {"SuperSecret1", "KeyPassW0rd77"}
    assert mask_arguments(["-uploadToken=abc:def9"]) == [f"-uploadToken={MASK}"]  # a Go-style option, as before


def test_a_go_style_secret_option_after_a_valueless_one_keeps_its_value_masked() -> None:
    args = ["--token", "-apiKey", "GoApiK3yValue", "--password", "-clientSecret", "GoCl1entSecret", "-v", "srv"]
    assert mask_arguments(args) == ["--token", MASK, MASK, "--password", MASK, MASK, "-v", "srv"]
    assert "GoApiK3yValue" in secret_arguments(args) and "GoCl1entSecret" in secret_arguments(args)
    # the word after `-apiKey` is its value whatever it looks like
    assert mask_arguments(["--token", "-apiKey", "-v", "srv"]) == ["--token", MASK, MASK, "srv"]
    spec = parse_config_data({"mcpServers": {"s": {"command": "srv", "args": args}}}, "mcp.json").servers[0]
    shown = json.dumps(spec.launch_preview(), ensure_ascii=False) + json.dumps(spec.redacted(), ensure_ascii=False)
    assert "GoApiK3yValue" not in shown and "GoCl1entSecret" not in shown, shown
