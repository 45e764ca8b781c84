"""The browser UI (/ui/ of `pica serve`) as a person uses it, in a real Chromium driven by
Playwright, against one server per module over a small home; and its safety rules over HTTP."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from pica.kernel import runner
from pica.stages.store.collections import Collections
from tests import helpers
from tests.helpers import free_port

SESSION = "s-ledger-2026"
EVIL = "<script>alert(1)</script>"


def chromium() -> str | None:
    return (
        os.environ.get("PICA_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`pica serve` on a free port of 127.0.0.1 over a home with notes (one titled with a script,
    one long), a Claude Code session, and hash-embedded vectors; its base address."""
    root = tmp_path_factory.mktemp("ui")
    claude = root / "claude" / "-work-ledger"
    claude.mkdir(parents=True)
    (claude / f"{SESSION}.jsonl").write_text(
        helpers.claude_line(1, "Why do ledger migrations lock the balances table?", SESSION) + "\n"
        + helpers.claude_line(2, "Because alembic runs them in one transaction on deploy.", SESSION) + "\n"
    )  # fmt: skip
    notes = helpers.make_folder(root / "notes", {
        "db.md": "---\ntitle: Database\nowner: ana\n---\nThe ledger uses Postgres 16.\n"
                 + "".join(f"filler line {n}\n" for n in range(120)) + "The ledger migration runs at night.\n",
        "ops.md": "---\ntitle: Ops\nowner: bo\n---\nThe ledger deploys on Fridays.\n",
        "evil.md": f"---\ntitle: {EVIL}\n---\nThe ledger <img src=x onerror=alert(2)> notes.\n",
        "page.html": "<html><body><script>alert(3)</script>ledger page</body></html>\n",
        "team/plans/q3.md": "---\ntitle: Third quarter\n---\nHire two people in autumn.\n",
        "long.md": "".join(f"line {n} of a long log\n" for n in range(1, 2500)) + "the paging marker\n",
    })  # fmt: skip
    (root / "outside.txt").write_text("secret outside the collection\n")
    (notes / "link.txt").symlink_to(root / "outside.txt")
    home = root / "home"
    env = {**os.environ, "PICA_HOME": str(home), "PICA_CLAUDE_DIR": str(root / "claude"), "PICA_WATCH": "0"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PICA_HOME", str(home))
        Collections(home).add(notes, "notes", {})
        helpers.index(notes, "notes")
        runner.run("ingest/transcripts", variables={"agent": "claude-code", "root": str(root / "claude")})
        helpers.embed()
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "pica", "serve", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        for _ in range(600):
            if process.poll() is not None:
                raise AssertionError(f"pica serve exited: {process.stderr.read().decode()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ui/status", timeout=5):
                    break
            except OSError:
                time.sleep(0.1)
        yield {"base": f"http://127.0.0.1:{port}", "root": root, "port": port, "env": env}
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
    )
    executable = chromium()
    if not executable:
        pytest.skip("no chromium on PATH (apt-get install chromium); set PICA_TEST_CHROMIUM to use another")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 700})
    opened = context.new_page()
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    opened.dialogs = dialogs
    yield opened
    context.close()


def fetch(url: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_typing_a_query_shows_results_in_place_with_marked_words_and_its_own_address(page, server):
    page.goto(server["base"] + "/ui/")
    page.select_option("#mode", "lexical")
    page.locator("#q").press_sequentially("ledger")  # searched as you type, no Enter
    page.wait_for_selector("#hits .hit")
    titles = page.locator("#hits .hit a.open").all_inner_texts()
    assert {"Database", "Ops", EVIL} <= set(titles)
    assert page.locator("#hits .hit mark").first.inner_text().lower() == "ledger"
    trust = page.locator("#hits .hit .trust").first
    assert trust.inner_text() in ("fact", "reference", "lead", "stale")
    assert f"trust-{trust.inner_text()}" in trust.get_attribute("class")
    assert page.locator("#hits .hit .source").first.inner_text() in ("files", "transcripts")
    assert page.locator("#hits meter.score").count() == len(titles)
    page.wait_for_url("**/ui/?q=ledger&mode=lexical*")  # the address follows the search
    page.reload()
    assert set(page.locator("#hits .hit a.open").all_inner_texts()) == set(titles)
    assert page.input_value("#q") == "ledger"
    assert not page.dialogs


def test_opening_a_result_shows_the_document_with_its_passage_marked_and_back_returns(page, server):
    page.goto(server["base"] + "/ui/?q=migration&mode=lexical")
    page.click("#hits a.open:has-text('Database')")
    page.wait_for_url("**/ui/doc?*")
    page.wait_for_selector("#reader[data-shown]")
    marked = page.locator(".line.hit")
    assert "migration" in marked.last.inner_text()
    assert page.locator(".line.hit mark").first.inner_text().lower() == "migration"
    box, height = marked.last.bounding_box(), page.viewport_size["height"]
    assert 0 <= box["y"] <= height  # scrolled to, though it is line 126 of the file
    assert page.locator(".frontmatter").inner_text().count("ana") == 1
    page.go_back()
    page.wait_for_url("**/ui/?q=migration*")
    assert page.locator("#hits a.open:has-text('Database')").count() == 1


def test_a_result_opens_beside_the_still_visible_list_and_back_returns(page, server):
    page.goto(server["base"] + "/ui/?q=migration&mode=lexical")
    page.click("#hits a.open:has-text('Database')")
    page.wait_for_url("**/ui/doc?*")  # the address is the document's: reload and links work
    page.wait_for_selector("#reader[data-shown] .line.hit")
    marked = page.locator("#reader .line.hit")
    assert "migration" in marked.last.inner_text()
    assert page.locator("#reader .line.hit mark").first.inner_text().lower() == "migration"
    hits, reader = page.locator("#hits").bounding_box(), page.locator("#reader").bounding_box()
    assert page.locator("#hits").is_visible() and reader["x"] >= hits["x"] + hits["width"]
    box, height = marked.last.bounding_box(), page.viewport_size["height"]
    assert 0 <= box["y"] <= height  # the pane scrolled to line 126
    assert page.locator("#hits li.current a.open").inner_text() == "Database"
    assert page.evaluate("document.activeElement.textContent") == "Database"
    page.keyboard.press("ArrowUp")  # the keys still move in the list while the pane shows it
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('#hits') !== null")
    assert "migration" in page.locator("#reader .line.hit").last.inner_text()
    page.go_back()
    page.wait_for_url("**/ui/?q=migration*")
    assert page.locator("#hits a.open:has-text('Database')").count() == 1
    assert page.locator("#reader .line").count() == 0
    page.go_forward()
    page.wait_for_url("**/ui/doc?*")
    page.reload()  # a document opened beside the list is also a page of its own
    assert "migration" in page.locator(".line.hit").last.inner_text()
    assert not page.dialogs


def test_browsing_a_collection_down_its_folders_to_a_document(page, server):
    page.goto(server["base"] + "/ui/status")
    page.click("a.browse:text-is('notes')")
    page.wait_for_url("**/ui/browse?collection=notes")
    listing = page.locator("#listing").inner_text()
    assert "Database" in listing and "db.md" in listing and EVIL in listing  # shown as text
    assert page.locator("#listing a.open").count() >= 4
    page.click("a.folder:text-is('team/')")
    page.wait_for_url("**/ui/browse?collection=notes&folder=team")
    page.click("a.folder:text-is('plans/')")
    page.wait_for_url("**folder=team%2Fplans")
    assert page.locator("#listing a.open").all_inner_texts() == ["Third quarter"]
    assert "team/plans/q3.md" in page.locator("#listing").inner_text()
    page.click("#listing a.open")
    page.wait_for_url("**/ui/doc?*")
    assert page.locator("h1").inner_text() == "Third quarter"
    assert "Hire two people" in page.locator(".doc").inner_text()
    page.click("#back")  # back to the folder it was opened from
    page.wait_for_url("**folder=team%2Fplans")
    page.click("nav.crumbs a:text-is('team')")
    page.wait_for_url("**/ui/browse?collection=notes&folder=team")
    page.click("nav.crumbs a:text-is('Collections')")
    page.wait_for_url("**/ui/browse")
    assert page.locator("a.folder:text-is('notes')").count() == 1
    page.goto(server["base"] + "/ui/")
    page.click(".browse-links a.browse:text-is('notes')")
    page.wait_for_url("**/ui/browse?collection=notes")
    assert not page.dialogs


def test_a_transcript_hit_opens_its_session_with_the_message_marked(page, server):
    page.goto(server["base"] + "/ui/?q=alembic&mode=lexical")
    page.click("#hits a.open >> nth=0")
    page.wait_for_url("**/ui/doc?*")
    assert page.locator(".message").count() == 2
    assert "alembic" in page.locator(".message.hit").inner_text()
    assert "balances" not in page.locator(".message.hit").inner_text()


def test_sessions_are_browsed_by_agent_and_similar_documents_listed(page, server):
    page.goto(server["base"] + "/ui/sessions")
    page.click("a:text-is('claude-code')")
    page.wait_for_url("**/ui/sessions?agent=claude-code")
    page.click(f"a.open:text-is('{SESSION}')")
    page.wait_for_selector(".message")
    assert page.locator(".message").count() == 2
    page.goto(server["base"] + "/ui/doc?id=notes/ops.md")
    page.click("#similar")
    page.wait_for_selector("#hits li.hit")
    assert "notes/ops.md" in page.locator(".similar").inner_text()


def test_keys_slash_arrows_and_enter(page, server):
    page.goto(server["base"] + "/ui/?q=ledger&mode=lexical")
    page.locator("body").click(position={"x": 5, "y": 400})
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    first = page.locator("#hits a.open").first
    assert page.evaluate("document.activeElement.textContent") == first.inner_text()
    href = first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/doc?*")
    assert page.url == server["base"] + href


def test_a_facet_filters_and_its_chip_removes_the_filter(page, server):
    page.goto(server["base"] + "/ui/?q=ledger&mode=lexical")
    page.click(".facets a.facet:has-text('ana')")
    page.wait_for_selector(".chips .chip")
    page.wait_for_url("**f=owner%3Dana*")
    assert page.locator("#hits a.open").all_inner_texts() == ["Database"]
    page.click(".chips .chip")
    page.wait_for_selector("#hits li.hit >> nth=1")
    assert page.locator(".chips .chip").count() == 0


def test_sort_by_a_field_and_a_front_matter_value_as_a_filter(page, server):
    page.goto(server["base"] + "/ui/?q=ledger&mode=lexical")
    page.click("details.sort summary")
    page.click("a.sort-by:text-is('owner ↓')")
    page.wait_for_url("**sort=-owner*")
    assert page.locator("#hits a.open").all_inner_texts()[:2] == ["Ops", "Database"]
    page.click("#hits a.open:has-text('Database')")
    page.wait_for_url("**/ui/doc?*")
    page.click(".frontmatter a:text-is('ana')")
    page.wait_for_url("**f=owner%3Dana*")
    assert page.locator("#hits a.open").all_inner_texts() == ["Database"]
    assert page.locator(".chips .chip").inner_text().startswith("owner=ana")


def test_a_title_holding_a_script_renders_as_text(page, server):
    page.goto(server["base"] + "/ui/?q=onerror&mode=lexical")
    assert page.locator("#hits a.open").first.inner_text() == EVIL
    page.click("#hits a.open >> nth=0")
    page.wait_for_url("**/ui/doc?*")
    assert page.locator("h1").inner_text() == EVIL
    assert "<img src=x onerror=alert(2)>" in page.locator(".doc").inner_text()
    assert page.locator("main img").count() == 0
    assert not page.dialogs


def test_a_long_document_is_paged_at_the_hit(server):
    status, _, body = fetch(server["base"] + "/ui/doc?id=notes/long.md&lines=2500-2500&q=paging")
    assert status == 200
    html = body.decode()
    assert "lines page 2 of 2" in html and 'id="L2001"' in html and 'id="L2000"' not in html
    assert '<div class="line hit" id="L2500" data-hit>' in html and "<mark>paging</mark>" in html


def test_open_file_serves_only_files_inside_a_registered_collection(server):
    base = server["base"] + "/ui/file?collection=notes&path="
    status, headers, body = fetch(base + "ops.md")
    assert status == 200 and b"Fridays" in body
    assert (
        headers["content-type"].startswith("text/plain") and "sandbox" in headers["content-security-policy"]
    )
    status, headers, body = fetch(base + "page.html")  # HTML is never served as a page
    assert status == 200 and headers["content-type"] == "application/octet-stream"
    assert headers["content-disposition"].startswith("attachment")
    outside = str(server["root"] / "outside.txt")
    for path in ("../outside.txt", outside, "link.txt", "a/../../outside.txt", "%2e%2e/outside.txt"):
        status, _, body = fetch(base + urllib.request.quote(path, safe="%"))
        assert status == 404 and b"secret" not in body, path
    assert fetch(server["base"] + "/ui/file?collection=nope&path=ops.md")[0] == 404


def test_other_origins_and_state_changing_methods_are_refused(server):
    page = server["base"] + "/ui/?q=ledger"
    status, headers, _ = fetch(page)
    assert status == 200 and "script-src 'self'" in headers["content-security-policy"]
    assert fetch(page, headers={"Origin": "http://evil.example"})[0] == 403
    assert fetch(page, headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert fetch(page, headers={"Host": "evil.example"})[0] == 403
    assert fetch(page, headers={"Host": "cafe:80"})[0] == 403  # a name, though it reads as hex
    assert fetch(page, method="POST")[0] == 405


def test_pica_ui_opens_the_running_server(server):
    ran = subprocess.run(
        [sys.executable, "-m", "pica", "ui", "--no-browser", "--port", str(server["port"])],
        env=server["env"], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert f"UI on {server['base']}/ui/ (a running pica serve)" in ran.stderr
