"""Which host a URL reaches, as the two families of URL readers read it.

Python programs (toolsearch's own HTTP client, Hermes, ``urllib``) read a URL by RFC 3986: a ``\\``
is an ordinary character, so in ``https://evil.example\\@mcp.linear.app/sse`` everything before the
``@`` is a user name and the host is ``mcp.linear.app``. Browsers and Node programs (``mcp-remote``
and the other Node MCP clients) read it by the WHATWG URL standard, where ``\\`` ends the host of an
``http(s)``/``ws(s)``/``ftp`` URL as ``/`` does: the host is ``evil.example``. Masking shows such a
URL as ``https://••••@mcp.linear.app/sse`` (the part before the ``@`` is a user name, which may be a
token, for Python), so the host a Node program would reach is not in view; :func:`host_disagreement`
says so in words. The WHATWG reading is the one Node itself uses (the ``ada-url`` library).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import ada_url

#: Where a URL starts inside a piece of text: a scheme, then ``/`` or ``\\`` (so a Windows path such as
#: ``C:report.txt`` is not one); for ``http(s)``, ``ws(s)`` and ``ftp`` the colon alone, as WHATWG
#: readers take ``https:evil.example`` for ``https://evil.example``.
_URL_START = re.compile(r"(?<![A-Za-z0-9+.\-])(?:[A-Za-z][A-Za-z0-9+.\-]*:[/\\]|(?:https?|wss?|ftp):)", re.IGNORECASE)
#: Tab, CR and LF: both families of readers drop them anywhere in a URL before reading it
#: (``ht<tab>tps://…`` is ``https://…``), so URLs are looked for with them dropped.
_DROPPED = re.compile(r"[\t\r\n]")
#: A URL's start up to the end of its authority as Python reads it (after the scheme's colon and
#: the slashes after it, the first ``/``, ``?`` or ``#``); both hosts are decided within it (WHATWG
#: ends the host there or earlier), so the rest is never read.
_AUTHORITY = re.compile(r"[^:]*:[/\\]*[^/?#]*")
#: A URL (as :func:`urls_in` cuts it) whose authority has only the plain characters of RFC 3986 after
#: ``scheme://``: no ``\\``, ``%``, bracket, space or non-ASCII character, so Python and WHATWG readers
#: take the same host (after the last ``@``, before a ``:port``; numeric IPv4 forms are compared as
#: addresses). Such a URL is not parsed.
_PLAIN_AUTHORITY = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[A-Za-z0-9.\-_~!$&'()*+,;=:@]*[/?#]?")
#: Schemes with no host to reach (a file URL names a path on this machine).
_NO_NETWORK = ("file",)
#: How many URL starts one piece of text is read for (a script of a few hundred URLs is read whole);
#: past it, :func:`host_disagreement` says that the rest was not read.
MAX_URLS_PER_TEXT = 256
#: How much of the text from a URL's start is read as that URL: its host is near the start, and a
#: bound keeps a crafted text of many URL starts linear.
MAX_URL_CHARS = 4096
#: A host named in words: letters, digits and ``-`` in dot-separated labels ending with a top-level
#: domain (letters, or ``xn--…``), ``localhost``, an IPv4 address or a bracketed IPv6 one. Anything
#: else (a token in front of ``\\@``) is not repeated.
_HOST_SHAPE = re.compile(r"(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9\-]{1,59})\.?"
                         r"|localhost|(?:\d{1,3}\.){3}\d{1,3}|\[[0-9a-f:.]+\]")


@dataclass(frozen=True)
class HostReadings:
    """The host one URL reaches for each family of readers.

    Attributes:
        url: the URL as written.
        python: the host a Python program connects to (``urlsplit``), lowercased; ``None``
            when it reads no host.
        whatwg: the host a browser or a Node program connects to, as the WHATWG standard
            serialises it (lowercase, IDNA, IPv4 in dotted form); ``None`` when it refuses the URL
            or reads no host.
    """

    url: str
    python: str | None
    whatwg: str | None

    @property
    def differ(self) -> bool:
        """True when a browser or a Node program reaches a host and Python programs read none or
        another machine name."""
        if self.whatwg is None:
            return False
        return self.python is None or _comparable(self.python) != _comparable(self.whatwg)


def _comparable(host: str) -> str:
    """``host`` in the form WHATWG writes it: IDNA for non-ASCII names, an IPv4 address in dotted
    form however it was written (``0x7f.1`` → ``127.0.0.1``, as the C library reads it too), no
    trailing dot, lowercase."""
    host = host.lower().rstrip(".")
    if host.startswith("[") and host.endswith("]") or ":" in host:  # IPv6: brackets and zeros as WHATWG writes them
        try:
            return f"[{ipaddress.IPv6Address(host.strip('[]'))}]"
        except ValueError:
            return host
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass
    if re.fullmatch(r"[0-9a-fx.]+", host):
        try:
            return socket.inet_ntoa(socket.inet_aton(host))
        except OSError:
            pass
    return host


def read_hosts(url: str) -> HostReadings:
    """The host ``url`` reaches for Python programs and for browsers and Node programs.

    Args:
        url: one URL as a program receives it (no surrounding text).

    Returns:
        :class:`HostReadings`; never raises (an unreadable URL reads as no host).
    """
    try:
        python = urlsplit(url).hostname or None
    except ValueError:
        python = None
    try:
        parsed = ada_url.parse_url(url)
    except (ValueError, TypeError, UnicodeError):
        whatwg = None
    else:
        scheme = str(parsed.get("protocol") or "").rstrip(":").lower()
        whatwg = (parsed.get("hostname") or None) if scheme not in _NO_NETWORK else None
    return HostReadings(url=url, python=python, whatwg=whatwg)


def urls_in(text: str) -> tuple[list[str], bool]:
    """The URLs a program may read in ``text`` (tabs and line breaks dropped, :data:`_DROPPED`), each
    from where it starts (:data:`_URL_START`, at most :data:`MAX_URLS_PER_TEXT` starts) to the end
    of its authority (:data:`_AUTHORITY`, at most :data:`MAX_URL_CHARS`), also cut at white space (a
    word of a script) and without a closing quote or bracket.

    Returns:
        ``(urls, cut)``: ``cut`` is true when the text holds more starts than were read, or more URL
        text than eight times its own length (a crafted text of nested starts); reading stops there.
    """
    clean = _DROPPED.sub("", text or "")
    budget = 8 * len(clean) + MAX_URL_CHARS
    urls: list[str] = []
    seen: set[str] = set()
    for count, match in enumerate(_URL_START.finditer(clean)):
        if count >= MAX_URLS_PER_TEXT:
            return urls, True
        head = _AUTHORITY.match(clean, match.start()).group(0)[:MAX_URL_CHARS]
        url = clean[match.start():match.start() + len(head) + 1]  # and the '/', '?' or '#' that ends it
        word = re.match(r"[^ \f\v]*", url).group(0)
        for candidate in (url, word, word.rstrip("'\")]};,")):
            if not candidate or candidate in seen:
                continue
            budget -= len(candidate)
            if budget < 0:
                return urls, True
            seen.add(candidate)
            urls.append(candidate)
    return urls, False


def _host_words(host: str | None, hidden: Callable[[str], bool], python: bool) -> str:
    """``host 'name'`` for the message, or words saying it is not shown: a host that ``hidden`` says
    holds a secret or a variable's value, or a WHATWG host of no host name's shape (a token written
    in front of ``\\@``, which Python sends as a user name; the Python host is in view in the masked
    URL anyway)."""
    if host is None:
        return "no host"
    if hidden(host):
        return "a host not repeated here (it holds a variable's value or a secret of the config)"
    if not python and not _HOST_SHAPE.fullmatch(host):
        return "a host not repeated here (Python reads it as a user name, which may be a token)"
    return f"host '{host}'"


def host_disagreement(text: str, hidden: Callable[[str], bool] = lambda host: False) -> str | None:
    """Words saying which hosts the first URL in ``text`` that readers disagree on reaches, or
    ``None`` when every URL in it reaches the same host for all of them.

    Args:
        text: a config value (a remote server's ``url``, a command-line argument, a script).
        hidden: whether a host would show a secret or a variable's value (compare casefolded: both
            readers lowercase a host); such a host is not repeated.

    Returns:
        e.g. ``"the URL's host reads two ways (a '\\' before the host's end, which browsers and
        Node read as '/'): Python programs such as toolsearch and Hermes reach host
        'mcp.linear.app', browsers and Node programs such as mcp-remote reach host 'evil.example'"``;
        for a text with more than :data:`MAX_URLS_PER_TEXT` URL starts and none of the first that
        many disagreeing, words saying the rest was not read.
    """
    urls, cut = urls_in(text)
    for url in urls:
        if _PLAIN_AUTHORITY.fullmatch(url):
            continue  # both read the host after the last '@' alike: not parsed (most URLs; a long list of them)
        readings = read_hosts(url)
        if not readings.differ:
            continue
        cause = _cause(url, readings)
        python = "read " + _host_words(None, hidden, True) + " in it" if readings.python is None else (
            "reach " + _host_words(readings.python, hidden, True))
        return (f"the URL's host reads two ways{cause}: Python programs such as toolsearch and Hermes {python}, "
                f"browsers and Node programs such as mcp-remote reach {_host_words(readings.whatwg, hidden, False)}")
    if cut:
        return (f"holds more URLs than were read (at most {MAX_URLS_PER_TEXT:,}, and no more URL text than eight "
                "times its own length): the rest was not read for a host that Python and Node programs read "
                "differently")
    return None


def _cause(url: str, readings: HostReadings) -> str:
    """What makes the readings differ, in words for :func:`host_disagreement` (``""`` if unknown)."""
    head = url.split("?", 1)[0].split("#", 1)[0]
    if "\\" in head:
        return " (a '\\' before the host's end, which browsers and Node read as '/')"
    if "%" in (readings.python or ""):
        return " (a percent-escape in the host, which browsers and Node decode)"
    return ""
