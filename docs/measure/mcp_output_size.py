"""How large the MCP `search` tool's answers are, as a client receives them (the compact JSON text),
by default, with no budget, compact, and with `all_passages` and k 100 (docs/mcp.md, "Output size").

    PICA_HOME=... python3 docs/measure/mcp_output_size.py

Ten questions over whatever the home holds; the tool runs in-process, exactly as `pica serve` wraps it.
"""

from __future__ import annotations

import statistics

from pica.kernel.settings import Settings
from pica.mcp.server import _with_defaults, tool_parameters
from pica.mcp.tools import Tools
from pica.mcp.toolsets import load_toolset

QUESTIONS = ["retry backoff", "how do I configure the database connection", "error: permission denied",
             "install dependencies", "pytest fixture", "authentication token refresh", "docker compose",
             "markdown table", "migration", "what did the agent change in the config file"]  # fmt: skip
SETTINGS = {
    "default": {},
    "no budget (budget_tokens 0)": {"budget_tokens": 0},
    "compact": {"compact": True},
    "all_passages, k 100": {"all_passages": True, "k": 100},
    "all_passages, k 100, no budget": {"all_passages": True, "k": 100, "budget_tokens": 0},
}


def main() -> None:
    toolset = load_toolset("default", tool_parameters())
    search = _with_defaults(Tools(Settings(), toolset.tools).search, toolset.tools["search"].defaults)
    print("| arguments | answer size, median (max) | hits, median | cut by the budget |")
    print("| --- | --- | --- | --- |")
    for label, arguments in SETTINGS.items():
        results = [search(query=q, **arguments) for q in QUESTIONS]
        sizes = [len(r.content[0].text.encode()) / 1024 for r in results]
        hits = [len(r.structured_content["hits"]) for r in results]
        cut = sum(any("fit the budget" in n for n in r.structured_content["notes"]) for r in results)
        print(f"| {label} | {statistics.median(sizes):.1f} KiB ({max(sizes):.1f}) | "
              f"{statistics.median(hits):g} | {cut} of {len(results)} |")  # fmt: skip


if __name__ == "__main__":
    main()
