"""The MCP front door: `pica serve` serves the tools of a tool set (recipes/mcp/*.yaml), each a
recipe run (server.py builds the server, tools.py holds the tools, toolsets.py loads tool sets)."""
