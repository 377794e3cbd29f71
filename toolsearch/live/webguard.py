"""The app's web server rules for browsers: no framing, no websocket from another site.

The app is served as a Streamlit ``st.App`` with :class:`BrowserGuard` as its outermost ASGI
middleware (the main scripts and :func:`toolsearch.ui.router.app_options`; ``streamlit run`` finds
the ``st.App`` and runs it under uvicorn), so the rules hold from the server's first response on:

* every HTTP response carries ``X-Frame-Options: DENY`` and ``Content-Security-Policy:
  frame-ancestors 'none'``: no other site can show the app in a frame and trick a user into
  clicking in it (the Report page's own preview is an ``srcdoc`` frame, which these do not stop);
* a websocket handshake whose ``Origin`` is not the app's own address (scheme aside, the same
  host and port as the request's ``Host``) is refused with HTTP 403 before Streamlit sees it.
  Streamlit itself admits any page on ``localhost`` whatever its port, and for other origins asks
  an internet service for the machine's address. Clients that send no ``Origin`` (not browsers)
  are left to Streamlit's own checks and to :mod:`toolsearch.live.guard`.

Plain ASGI: no Streamlit or Starlette import here.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Headers added to every HTTP response (name, value), lower-case as ASGI carries them.
FRAME_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
)
#: The websocket close code sent before accepting (uvicorn turns it into an HTTP 403 answer).
POLICY_VIOLATION = 1008


def same_origin(origin: str | None, host: str | None) -> bool:
    """True when the ``Origin`` header names the host and port of the ``Host`` header.

    Args:
        origin: the ``Origin`` header (``http://localhost:8501``); ``"null"`` (an opaque origin:
            a sandboxed frame, a ``data:`` URL or a file) never matches.
        host: the ``Host`` header of the same request (``localhost:8501``).

    Returns:
        ``False`` when either is missing or unreadable; the comparison ignores case.
    """
    if not origin or not host or origin.strip().lower() == "null":
        return False
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        return False
    return parts.netloc.lower() == host.strip().lower()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


class BrowserGuard:
    """ASGI middleware: :data:`FRAME_HEADERS` on every HTTP response; a websocket from a page of
    another origin is refused (HTTP 403) before the wrapped app runs. Other traffic passes as is.

    Args:
        app: the ASGI application to wrap (Streamlit's).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    # Ours replace any X-Frame-Options; a second CSP header only narrows the first.
                    kept = [(k, v) for k, v in message.get("headers") or () if k.lower() != b"x-frame-options"]
                    message["headers"] = [*kept, *FRAME_HEADERS]
                await send(message)

            await self.app(scope, receive, send_with_headers)
            return
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not same_origin(origin, _header(scope, b"host")):
                await receive()  # the websocket.connect event
                await send({"type": "websocket.close", "code": POLICY_VIOLATION})
                return
        await self.app(scope, receive, send)
