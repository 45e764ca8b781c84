"""The screenshots in docs/ui/, taken in Chromium (Playwright) from a running `pica serve`.

    python docs/ui/screenshots.py --base http://127.0.0.1:8765 --query "knowledge graph" [--session-query Q]

search.png: the results of QUERY (default mode); doc.png: its first file hit opened; status.png;
session.png: the first transcript hit of --session-query opened as its session (when given).
"""

from __future__ import annotations

import argparse
import shutil
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="http://127.0.0.1:8765")
    parser.add_argument("--query", default="knowledge graph")
    parser.add_argument("--session-query", default="")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(args.base + "/ui/?" + urllib.parse.urlencode({"q": args.query}))
        page.screenshot(path=HERE / "search.png")
        page.click("#hits li.hit:has(.source:text-is('files')) a.open >> nth=0")
        page.wait_for_url("**/ui/doc?*")
        page.screenshot(path=HERE / "doc.png")
        page.goto(args.base + "/ui/status")
        page.screenshot(path=HERE / "status.png")
        if args.session_query:
            page.goto(args.base + "/ui/?" + urllib.parse.urlencode({"q": args.session_query}))
            page.click("#hits li.hit:has(.source:text-is('transcripts')) a.open >> nth=0")
            page.wait_for_url("**/ui/doc?*")
            page.screenshot(path=HERE / "session.png")
        browser.close()


if __name__ == "__main__":
    main()
