"""Proxies for remote MCP servers (Streamable HTTP and SSE).

A remote server is reached through the proxy the standard environment variables name:
``HTTP_PROXY``, ``HTTPS_PROXY`` and ``ALL_PROXY`` (or their lowercase forms, which win when both
are set), with the hosts in ``NO_PROXY`` reached directly. httpx2 reads these variables itself
(:func:`httpx2._utils.get_environment_proxies`, what it does for a client whose transport it
builds): the clients here have a transport of their own (the size limit of
:mod:`toolsearch.live.replycap`), and httpx2 reads no proxy variable for such a client, so the
proxies it reads are handed to the client as mounts (:func:`proxy_mounts`).

Two rules are added to httpx2's:

* a server on loopback (``localhost``, ``127.0.0.0/8``, ``::1``) is always reached directly,
  whatever the variables say: a proxy elsewhere cannot reach this machine's loopback, and a
  local server's traffic has no business leaving the machine;
* a proxy URL that cannot be used raises :class:`~toolsearch.engine.errors.ServerError` naming
  the variable and what was expected, before anything is sent, instead of httpx2's traceback.

Proxy credentials (``http://user:password@proxy:3128``) are secrets: httpx2 sends them in a
``Proxy-Authorization`` header to the proxy only, :attr:`ProxyRoute.shown` masks them, and
:func:`proxy_secrets` lists them for the masks of failure reasons and SDK log records.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit
from urllib.request import getproxies

from ..engine.errors import ServerError
from ..engine.secrets import redact_url

#: Mount patterns (httpx2 ``URLPattern`` keys) for the loopback hosts: always reached directly.
LOOPBACK_PATTERNS = ("all://localhost", "all://127.0.0.0/8", "all://[::1]")
#: The schemes httpx2 can use for a proxy.
PROXY_SCHEMES = ("http", "https", "socks5", "socks5h")
_EXPECTED = ("expected http://HOST:PORT (or https://, socks5://, socks5h://), with USER:PASSWORD@ before "
             "the host if the proxy needs them")
_SCHEME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,19}")


@dataclass(frozen=True)
class ProxyRoute:
    """The proxy a remote server's requests go through.

    Attributes:
        variable: the environment variable that named it (``HTTPS_PROXY``, ``https_proxy``…).
        url: the proxy URL as given (credentials included: never shown; use :attr:`shown`).
    """

    variable: str
    url: str

    @property
    def shown(self) -> str:
        """The proxy URL safe to show: ``user:password@`` as ``••••@``, query values masked."""
        return redact_url(self.url)

    def __repr__(self) -> str:  # never show the credentials, even in a traceback
        return f"ProxyRoute(variable={self.variable!r}, url={self.shown!r})"

    __str__ = __repr__


def is_loopback_url(url: str | None) -> bool:
    """Whether ``url``'s host is on loopback: ``localhost`` (and its other names, a final dot
    allowed), an address in ``127.0.0.0/8``, ``::1`` or an IPv4-mapped loopback address."""
    from .guard import is_loopback_host  # noqa: PLC0415

    try:
        host = urlsplit(url or "").hostname or ""
    except ValueError:
        return False
    host = host.rstrip(".")
    if is_loopback_host(f"[{host}]" if ":" in host else host):
        return True
    try:
        mapped = getattr(ipaddress.ip_address(host), "ipv4_mapped", None)
    except ValueError:
        return False
    return mapped is not None and mapped.is_loopback


def _variable(pattern: str) -> str:
    """The environment variable behind a proxy mount ``pattern`` (``https://`` → ``https_proxy``
    or ``HTTPS_PROXY``), named as the user wrote it; the lowercase form wins, as urllib reads them."""
    scheme = pattern.split("://", 1)[0]
    names = [name for name in os.environ if name.lower() == f"{scheme}_proxy" and os.environ[name]]
    for name in sorted(names, key=lambda n: (n != n.lower(), n != n.upper(), n)):
        return name
    return f"the system's {scheme} proxy setting"


def _check(variable: str, url: str) -> None:
    """Raise :class:`ServerError` unless httpx2 can use ``url`` as a proxy (no part of ``url`` is
    in the message but its scheme, when that is a plain word)."""
    import httpx2  # noqa: PLC0415

    scheme = url.split("://", 1)[0]
    try:
        proxy = httpx2.Proxy(url)
    except ValueError:  # an unknown scheme; httpx2's message quotes the URL (its password masked)
        problem = (f"the scheme {scheme.lower()!r} is none of " if _SCHEME_WORD.fullmatch(scheme)
                   else "its scheme is none of ") + ", ".join(PROXY_SCHEMES)
    except httpx2.InvalidURL:  # a port that is not a number, a control character…
        problem = "it cannot be read as a URL"
    else:
        problem = None
        if not proxy.url.host:
            problem = "it names no host"
        elif proxy.url.port is not None and not 0 < proxy.url.port < 65536:
            problem = "its port is not between 1 and 65535"
        elif proxy.url.scheme.startswith("socks"):
            try:
                import socksio  # noqa: F401, PLC0415
            except ImportError:
                raise ServerError(f"{variable} names a SOCKS proxy, which needs the socksio package "
                                  "(pip install socksio); nothing was sent") from None
    if problem is not None:
        raise ServerError(f"{variable} is not a usable proxy URL ({problem}); {_EXPECTED}; nothing was sent")


def environment_proxies() -> dict[str, ProxyRoute | None]:
    """The proxy mounts the environment asks for, as httpx2 reads them: ``{pattern: route}``
    with ``http://``, ``https://`` and ``all://`` for ``HTTP_PROXY``, ``HTTPS_PROXY`` and
    ``ALL_PROXY``, and ``{pattern: None}`` for each ``NO_PROXY`` entry (``all://*example.com``,
    ``all://10.0.0.0/8``…; ``NO_PROXY=*`` gives no mount at all). The URLs are not checked here
    (:func:`proxy_route` checks the one a server's requests would use).
    """
    if not any(getproxies().get(scheme) for scheme in ("http", "https", "all")):
        return {}  # no proxy named: nothing of httpx2's below is needed
    get_environment_proxies, _ = _httpx_proxy_reading()
    return {pattern: None if url is None else ProxyRoute(_variable(pattern), url)
            for pattern, url in get_environment_proxies().items()}


def _httpx_proxy_reading() -> tuple[Any, Any]:
    """httpx2's ``get_environment_proxies`` and ``URLPattern`` (how it reads the variables and
    matches a URL to a mount; not part of its public API).

    Raises:
        ServerError: the installed httpx2 no longer has them.
    """
    try:
        from httpx2._utils import URLPattern, get_environment_proxies  # noqa: PLC0415
    except ImportError:
        raise ServerError("a proxy variable is set, and this httpx2 version reads proxy variables in a way "
                          "toolsearch does not know; install a version the project supports (see pyproject.toml), "
                          "or unset the variable for servers that need no proxy; nothing was sent") from None
    return get_environment_proxies, URLPattern


def _matching(routes: dict[str, ProxyRoute | None], url: str) -> ProxyRoute | None:
    """The route of the most specific pattern that matches ``url``, as httpx2 picks its mount."""
    import httpx2  # noqa: PLC0415

    if not routes:
        return None
    _, URLPattern = _httpx_proxy_reading()  # noqa: N806 - httpx2's class
    try:
        target = httpx2.URL(url)
    except Exception:  # noqa: BLE001 - a URL httpx2 cannot read fails its connect with its own reason
        return None
    for pattern, route in sorted(((URLPattern(key), value) for key, value in routes.items()), key=lambda p: p[0]):
        if pattern.matches(target):
            return route
    return None


def proxy_route(url: str | None) -> ProxyRoute | None:
    """The proxy requests to ``url`` go through, or ``None`` (reached directly: a loopback
    host, a ``NO_PROXY`` host, no proxy variable for its scheme). The most specific mount wins,
    as in httpx2.

    Raises:
        ServerError: the variable that names the proxy for ``url`` holds a URL httpx2 cannot use;
            the message names the variable and what was expected, and holds no part of the value
            but its scheme. Never for a loopback ``url``, nor for a variable ``url`` does not use.
    """
    if not url or is_loopback_url(url):
        return None
    route = _matching(environment_proxies(), url)
    if route is not None:
        _check(route.variable, route.url)
    return route


def proxy_line(url: str | None) -> str:
    """How requests to ``url`` travel, in one line for a confirmation before connecting:
    ``http://••••@proxy:3128 (HTTPS_PROXY)``, ``direct (a server on this machine)``,
    ``direct (no proxy variable for this URL's scheme, or NO_PROXY names the host)`` or, for a proxy
    variable that holds no usable URL, ``the connection will fail: `` and the reason (naming the
    variable, quoting nothing of its value). Never raises; credentials are masked."""
    if not url or is_loopback_url(url):
        return "direct (a server on this machine)"
    try:
        route = proxy_route(url)
    except ServerError as exc:
        return f"the connection will fail: {exc}"
    if route is None:
        return "direct (no proxy variable for this URL's scheme, or NO_PROXY names the host)"
    return f"{route.shown} ({route.variable})"


def proxy_mounts(url: str | None, transport: Any) -> dict[str, Any]:
    """The ``mounts`` for an ``httpx2.AsyncClient`` that reaches ``url``: when a proxy applies to
    ``url`` (:func:`proxy_route`), every usable proxy the environment names, each as
    ``transport(proxy)`` (an ``httpx2`` transport through that ``httpx2.Proxy``), and ``None``
    (the client's own, direct transport) for the ``NO_PROXY`` hosts and for loopback
    (:data:`LOOPBACK_PATTERNS`); nothing when ``url`` is reached directly (a loopback ``url``,
    whatever the variables hold, a ``NO_PROXY`` host, no variable set).

    Args:
        url: the server's URL.
        transport: called with an ``httpx2.Proxy``; returns the transport for it.

    Raises:
        ServerError: as :func:`proxy_route`.
    """
    import httpx2  # noqa: PLC0415

    if proxy_route(url) is None:
        return {}
    mounts: dict[str, Any] = {}
    for pattern, route in environment_proxies().items():
        if route is None:
            mounts[pattern] = None
            continue
        try:
            _check(route.variable, route.url)
        except ServerError:
            continue  # a variable this server's requests do not use (proxy_route checked that one)
        mounts[pattern] = transport(httpx2.Proxy(route.url))
    mounts.update(dict.fromkeys(LOOPBACK_PATTERNS))
    return mounts


def proxy_secrets() -> list[str]:
    """The passwords (and, without a password, the user names) in the proxy URLs the environment
    names, for the masks of failure reasons and log records; empty when none is set or readable."""
    found = []
    for pattern, url in _raw_proxies().items():
        try:
            parts = urlsplit(url if "://" in url else f"http://{url}")
            value = parts.password or parts.username
        except ValueError:
            value = url.rpartition("@")[0].partition("://")[2] if "@" in url else ""
        if value:
            found.append(value)
            found.append(url)
    return found


def _raw_proxies() -> dict[str, str]:
    """The proxy variables' values as httpx2 reads them (``{pattern: url}``), unchecked."""
    proxies = getproxies()
    return {f"{scheme}://": proxies[scheme] for scheme in ("http", "https", "all") if proxies.get(scheme)}
