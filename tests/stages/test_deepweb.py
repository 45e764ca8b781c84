"""`pica deepweb` end to end against a SearXNG stand-in on 127.0.0.1, and the page reader's guard."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pica.kernel import runner
from pica.kernel.records import Hit
from pica.kernel.stage import Context
from pica.stages.tokens import heuristic_tokens
from pica.stages.trim import hit_text
from pica.stages.web.corroborate import site
from pica.stages.web.fetch import Guard, Refused
from pica.stages.web.read import ReadPages
from tests.web_server import local_web, result

ARTICLE = (
    "<html><head><title>Tower</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/shop'>Shop our deals</a> Subscribe to the newsletter</nav>"
    "<article><h1>How tall is the tower?</h1>"
    "<p>The iron tower on the Champ de Mars is 330 metres tall since its newest antenna was fitted.</p>"
    "<p>It was finished in 1889 for the World's Fair and was the tallest structure for 41 years.</p>"
    "<p>Engineers measured its height again in 2022 and found it grew by six metres.</p>"
    "</article><footer>Copyright, cookies and legal notices</footer></body></html>"
)
SNIPPET = "The iron tower on the Champ de Mars is 330 metres tall since its newest antenna was fitted"


@pytest.fixture
def web():
    with local_web() as web:
        one = web.page("/tower", ARTICLE)
        mirror = one.replace("127.0.0.1", "localhost") + "-mirror"  # another host: another site
        web.page("/tower-mirror", ARTICLE)
        web.results["tower height"] = [
            result(one + "?utm_source=feed", "How tall is the tower?", SNIPPET),
            result("https://travel.example.com/paris", "Visiting Paris", "Queues at the tower are long."),
        ]
        web.results["how tall is the iron tower"] = [
            result(one, "How tall is the tower?", SNIPPET + "."),
            result(mirror, "Tower height (mirror)", SNIPPET.lower()),
        ]
        web.results["eiffel tower metres"] = [
            result("https://news.example.org/t", "Tower grows", "Six metres.")
        ]
        yield web


def deepweb(web, *args: str, allow: bool = True) -> dict:
    env = {**os.environ, "PICA_WEB_URL": web.url, "PICA_HOME": os.environ["PICA_HOME"]}
    if allow:  # the stand-in's pages are on this machine, which the guard refuses unless allowed
        team = os.path.join(os.environ["PICA_HOME"], "configs", "team")
        os.makedirs(team, exist_ok=True)
        with open(os.path.join(team, "local-web.yaml"), "w") as f:
            f.write("providers:\n  pages:\n    allow_hosts: [127.0.0.1, localhost]\n")
        env["PICA_TEAM"] = "local-web"
    questions = ["tower height", "--q", "how tall is the iron tower", "--q", "eiffel tower metres"]
    done = subprocess.run(
        [sys.executable, "-m", "pica", "deepweb", *questions, "--json", *args],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_deepweb_fuses_phrasings_by_url_and_counts_independent_sites(web, pica_home):
    answer = deepweb(web)
    asked = sorted(a for a in web.asked if a.startswith("/search"))
    assert len(asked) == 3  # every phrasing went out
    urls = [h["id"] for h in answer["hits"]]
    assert len(urls) == len(set(urls)) == 4  # the same page found twice is one result
    top = answer["hits"][0]
    assert top["id"].split("?")[0].endswith("/tower") and len(top["corroboration"]) == 1  # both spellings
    assert top["metadata"]["sites"] == ["127.0.0.1", "localhost"] and top["metadata"]["corroborated_by"] == 2
    lonely = next(h for h in answer["hits"] if "travel.example.com" in h["id"])
    assert lonely["metadata"]["corroborated_by"] == 1
    assert "Champ de Mars" in top["passage"] and "1889" not in top["passage"]  # snippets only
    assert answer["tokens"] == sum(heuristic_tokens(hit_text(Hit(**h))) for h in answer["hits"])


def test_deepweb_thorough_reads_main_text_within_the_budget(web, pica_home):
    answer = deepweb(web, "--thorough", "--budget", "400")
    top = answer["hits"][0]
    assert top["metadata"]["read"] is True
    assert "1889" in top["passage"] and "grew by six metres" in top["passage"]
    assert "newsletter" not in top["passage"] and "cookies" not in top["passage"]  # boilerplate left out
    assert 0 < answer["tokens"] <= 400
    assert any("travel.example.com" in w and "not read" in w for w in answer["warnings"])  # no such host


def test_deepweb_refuses_pages_on_this_machine_unless_allowed(web, pica_home):
    answer = deepweb(web, "--thorough", allow=False)
    assert all("read" not in h["metadata"] for h in answer["hits"])
    assert answer["hits"][0]["passage"] in (SNIPPET, SNIPPET + ".")  # a snippet stays
    refused = [w for w in answer["warnings"] if "loopback, private or link-local" in w]
    assert refused and "allow_hosts" in refused[0]
    assert not any(a.startswith("/tower") for a in web.asked)  # nothing was fetched


def test_deepweb_without_an_endpoint_says_what_to_set(pica_home):
    env = {k: v for k, v in os.environ.items() if k != "PICA_WEB_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "pica", "deepweb", "anything"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "set PICA_WEB_URL" in done.stderr


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/x",
        "http://localhost/x",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
        "file:///etc/passwd",
        "ftp://93.184.216.34/x",
    ],
)
def test_guard_refuses_local_addresses_and_other_schemes(url):
    with pytest.raises(Refused):
        Guard().check(url)


def test_guard_lets_public_addresses_and_allowed_hosts_through():
    Guard().check("http://93.184.216.34/page")
    Guard(allow_hosts=("127.0.0.1",)).check("http://127.0.0.1:8080/page")
    Guard(allow_private=True).check("http://10.0.0.1/")
    with pytest.raises(Refused, match="only http and https"):
        Guard(allow_private=True).check("file:///etc/passwd")


def read_pages(hits: list[Hit], **params) -> tuple[list[Hit], list[str]]:
    ctx = Context()
    return ReadPages(ReadPages.Params(**params)).run(ctx, hits)["hits"], ctx.warnings


def web_hit(url: str) -> Hit:
    return Hit(url, url, "web", url, "T", 0, 0, 1.0, "snippet", source="web")


def test_a_redirect_to_a_private_address_is_refused(web):
    public_looking = web.url.replace("127.0.0.1", "localhost")
    web.redirects["/go"] = f"{web.url}/tower"  # localhost allowed, 127.0.0.1 not
    hits, warnings = read_pages([web_hit(f"{public_looking}/go")], allow_hosts=["localhost"])
    assert hits[0].passage == "snippet"
    assert "Refused" in warnings[0] and "127.0.0.1" in warnings[0]
    assert "/tower" not in web.asked


def test_page_size_and_time_limits(web):
    web.page(
        "/huge", "<html><body><article><p>" + "Useful words here. " * 20_000 + "</p></article></body></html>"
    )
    web.page("/slow", ARTICLE)
    web.delays["/slow"] = 3
    hits, warnings = read_pages(
        [web_hit(f"{web.url}/huge"), web_hit(f"{web.url}/slow")],
        allow_private=True,
        max_bytes=5000,
        timeout_s=1,
    )
    assert hits[0].metadata.get("read") is True and len(hits[0].passage) < 5000  # cut at the size limit
    assert hits[1].passage == "snippet" and "timed out" in warnings[0].lower()


def test_site_is_the_registrable_domain():
    assert site("https://news.bbc.co.uk/a") == "bbc.co.uk"
    assert site("https://www.example.org/a") == "example.org"
    assert site("https://a.b.example.com/") == "example.com"
    assert site("http://127.0.0.1:8080/x") == "127.0.0.1"


def test_deepweb_recipe_fails_open_when_the_endpoint_is_down(pica_home):
    with local_web() as web:
        web.results["q"] = 502
        result_ = runner.run("search/deepweb", [f"providers.web.url={web.url}"], variables={"query": "q"})
    assert result_.output == {"hits": [], "tokens": 0}
    assert any("retrieve.web.v1" in w and "502" in w for w in result_.warnings)
