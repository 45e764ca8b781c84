"""The browser UI: pages under /ui/ of `pica serve` (routes.py), rendered with Jinja2 (templates/),
updated in place by htmx (static/htmx.min.js, vendored: htmx.org 2.0.11, BSD-2-Clause). Rendering
only: every page runs the MCP tools' own methods. See docs/ui.md."""
