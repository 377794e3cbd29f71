"""Where this browser connects from: the check the views make before starting a process or
reading a path typed into a page (:func:`toolsearch.live.guard.check_client`)."""

from __future__ import annotations

import streamlit as st

from toolsearch.live.guard import ClientCheck, check_client


def _peer_address() -> str | None:
    """The TCP peer of this session's connection, or ``None`` when there is none to tell.

    Not ``st.context.ip_address``: it says ``None`` both for a loopback peer and for a session
    with no peer at all (Streamlit's agent API, ``server.enableAgentApi``, runs sessions from
    HTTP requests whose Host header anyone can write), so it cannot tell "this machine" from
    "unknown"."""
    from streamlit.runtime import get_instance  # noqa: PLC0415
    from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: PLC0415

    ctx = get_script_run_ctx()
    client = get_instance().get_client(ctx.session_id) if ctx is not None else None
    context = getattr(client, "client_context", None) if client is not None else None
    remote_ip = getattr(context, "remote_ip", None) if context is not None else None
    return remote_ip if isinstance(remote_ip, str) and remote_ip else None


def client_check() -> ClientCheck:
    """Whether this browser is on the machine that runs the app
    (:func:`toolsearch.live.guard.check_client` over the connection's peer address and
    ``st.context.headers``); anything unknown counts as not. Pages ask it before starting a
    process or reading a path typed into the page."""
    try:
        peer = _peer_address()
        headers = dict(st.context.headers)
    except Exception:  # noqa: BLE001 - no request context: fail closed
        peer, headers = None, {}
    if peer is None:
        return ClientCheck(False, "the app cannot tell where this browser connects from")
    return check_client(peer, headers)
