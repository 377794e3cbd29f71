"""Live MCP servers: client config formats, the MCP client and the app's launch guard.

What belongs here: reading MCP client configs (``mcpconfig``: mcpServers / servers /
mcp_servers, secrets masked), starting and listing real servers and calling their tools
(``client``; remote ones through the proxy the environment names, ``proxies``), and the guard
that decides who may start a server from the app (``guard``).

May import: ``toolsearch.engine`` and the package root (``__version__``); never
``toolsearch.analysis``, ``toolsearch.cli`` nor ``toolsearch.ui``.
"""
