"""The bridge's wire name per provider transport.

Some providers reserve the function name ``tool_search`` for their own hosted search: xAI rejects
a client function of that name (both its Responses and Chat Completions routes), and OpenAI's
Responses API treats ``tool_search`` as the namespace of its hosted tool search. On those
transports Hermes sends the ``tool_search`` bridge as ``hermes_tool_search`` and maps the name back
before dispatch; ``tool_describe`` and ``tool_call`` are unchanged, and so is everything else in the
request. The default transport (Chat Completions to any other provider) sends the names as they are.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from . import constants as C

CHAT_COMPLETIONS = "chat-completions"
OPENAI_RESPONSES = "openai-responses"
XAI = "xai"
#: Transports, the default first.
TRANSPORTS: tuple[str, ...] = (CHAT_COMPLETIONS, OPENAI_RESPONSES, XAI)
#: Names each transport reserves for the provider's own tools.
RESERVED_NAMES: dict[str, tuple[str, ...]] = {CHAT_COMPLETIONS: (), OPENAI_RESPONSES: (C.TOOL_SEARCH,),
                                              XAI: (C.TOOL_SEARCH,)}
#: The name the bridge goes out under where its own name is reserved.
WIRE_ALIASES: dict[str, str] = {C.TOOL_SEARCH: "hermes_tool_search"}
#: Every name a bridge tool can have on some wire.
ALL_BRIDGE_WIRE_NAMES: tuple[str, ...] = (*C.BRIDGE_NAMES, *WIRE_ALIASES.values())


def wire_name(name: str, transport: str = CHAT_COMPLETIONS) -> str:
    """The name bridge tool ``name`` is sent under on ``transport`` (unchanged unless reserved there).

    Raises:
        ValueError: an unknown transport.
    """
    if transport not in RESERVED_NAMES:
        raise ValueError(f"unknown transport {transport!r}: expected one of {', '.join(TRANSPORTS)}")
    return WIRE_ALIASES.get(name, name) if name in RESERVED_NAMES[transport] else name


def wire_tools(tools: Sequence[Mapping[str, Any]], transport: str = CHAT_COMPLETIONS,
               bridge_active: bool = True) -> list[dict[str, Any]]:
    """The tools array as sent on ``transport``: a copy in which each bridge tool whose name is
    reserved there carries its wire alias. Nothing else changes; with ``bridge_active`` False (no
    bridge in the array, tier 0) the array is returned unchanged (a catalog tool that happens to
    carry a bridge name is not a bridge tool).

    Raises:
        ValueError: an unknown transport.
    """
    out = [dict(t) for t in tools]
    if not bridge_active:
        wire_name(C.TOOL_SEARCH, transport)  # validates the transport
        return out
    for i, tool in enumerate(out):
        function = tool.get("function")
        if isinstance(function, Mapping) and function.get("name") in C.BRIDGE_NAMES:
            alias = wire_name(function["name"], transport)
            if alias != function["name"]:
                out[i] = {**tool, "function": {**function, "name": alias}}
    return out


def wire_names(transport: str = CHAT_COMPLETIONS) -> dict[str, str]:
    """``{bridge name: wire name}`` for the three bridge tools on ``transport``.

    Raises:
        ValueError: an unknown transport.
    """
    return {name: wire_name(name, transport) for name in C.BRIDGE_NAMES}


def transport_note(transport: str, bridge_active: bool) -> str:
    """One line saying how the bridge goes out on ``transport``.

    Raises:
        ValueError: an unknown transport.
    """
    if not bridge_active:
        return f"transport {transport}: no bridge tools in the array (tier 0)"
    renamed = [(n, w) for n, w in wire_names(transport).items() if n != w]
    if not renamed:
        return f"transport {transport}: bridge tools sent as {', '.join(C.BRIDGE_NAMES)}"
    return (f"transport {transport}: " + "; ".join(f"{n} is reserved there, sent as {w}" for n, w in renamed)
            + " (mapped back before dispatch)")
