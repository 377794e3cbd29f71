"""Launch guard for the app: who may start a server process or call a tool from a browser.

The app listens on 127.0.0.1 by default (``.streamlit/config.toml``). When a user exposes it on
another address on purpose, anyone who reaches the port could otherwise start programs as that
user from the Live servers page. So every launch from the page needs one of:

* a browser on this machine: the connection comes from loopback, the ``Host`` names a loopback
  host (this also stops DNS-rebinding pages that resolve their own name to 127.0.0.1), the
  ``Origin`` (when sent) is the app's own (same host and port: a page served by another program
  on this machine, ``http://localhost:3000``, is another site), and no proxy header says the
  request was forwarded; or
* the per-launch token (:func:`launch_token`), printed in the terminal that runs the app.

Anything the page cannot tell (no request headers, an address it does not understand) counts as
"not on this machine": the guard fails closed. This module has no Streamlit import; the page
passes in what :attr:`streamlit.context` knows.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import sys
import threading
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import urlsplit

from .webguard import same_origin

#: Environment variable that sets the token instead of a random one (e.g. for a scripted setup).
TOKEN_ENV = "TOOLSEARCH_APP_TOKEN"
#: Headers a reverse proxy adds; their presence means the client may be anywhere.
FORWARDED_HEADERS = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip", "x-client-ip")
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}

_lock = threading.Lock()
_token: str | None = None


def launch_token(announce: bool = True) -> str:
    """The token for this process: :data:`TOKEN_ENV` when set, else 32 random URL-safe characters
    made on the first call. The first call prints it on stderr (the terminal running the app)
    unless ``announce`` is false."""
    global _token
    with _lock:
        if _token is None:
            _token = os.environ.get(TOKEN_ENV, "").strip() or secrets.token_urlsafe(24)
            if announce:
                print("toolsearch: launch token for browsers that are not on this machine "
                      f"(Live servers page): {_token}", file=sys.stderr, flush=True)
        return _token


def token_matches(given: str | None) -> bool:
    """True when ``given`` is this process's token (constant-time comparison)."""
    if not given:
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), launch_token().encode("utf-8"))


def is_loopback_host(host: str | None) -> bool:
    """True for ``localhost``, ``127.x.x.x``, ``::1`` (with or without brackets and port)."""
    if not host:
        return False
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ClientCheck:
    """Whether the browser is on this machine, and why not.

    Attributes:
        local: True when a launch needs no token.
        reason: one line for the page when ``local`` is false ("" otherwise).
    """

    local: bool
    reason: str = ""


def check_client(ip_address: str | None, headers: Mapping[str, str] | None) -> ClientCheck:
    """Decide from what the web server knows about the connection.

    Args:
        ip_address: the peer address (Streamlit's ``st.context.ip_address``: ``None`` for a
            loopback peer).
        headers: the request headers of the browser's connection (``st.context.headers``);
            empty or ``None`` when unknown.

    Returns:
        :class:`ClientCheck`; fails closed (``local=False``) whenever something is unknown.
    """
    lowered = {str(k).lower(): str(v) for k, v in (headers or {}).items()}
    if not lowered:
        return ClientCheck(False, "the app cannot tell where this browser connects from")
    forwarded = [h for h in FORWARDED_HEADERS if h in lowered]
    if forwarded:
        return ClientCheck(False, f"the request came through a proxy ({forwarded[0]} header)")
    if ip_address is not None and not is_loopback_host(ip_address):
        return ClientCheck(False, f"this browser connects from {ip_address}, not from this machine")
    host = lowered.get("host")
    if not is_loopback_host(host):
        return ClientCheck(False, f"the app was reached as {host!r}, not as localhost" if host
                           else "the request has no Host header")
    origin = lowered.get("origin")
    if origin is not None and origin.strip().lower() == "null":
        # An opaque origin: a sandboxed frame, a data: URL or a local file. Any web page can make
        # one, so it does not show that the page came from this machine.
        return ClientCheck(False, "the page has an opaque origin (a sandboxed frame, a data: URL or a file)")
    if origin:
        try:
            origin_host = urlsplit(origin).hostname
        except ValueError:
            origin_host = None
        if not is_loopback_host(origin_host):
            return ClientCheck(False, f"the page was opened from {origin!r}, not from localhost")
        if not same_origin(origin, host):
            # Another program on this machine (another port) is another site: only the app's
            # own pages count as this machine's browser.
            return ClientCheck(False, f"the page was opened from {origin!r}, not from this app ({host})")
    return ClientCheck(True)
