"""Fetching a web page without becoming a way into the user's own network.

Only http and https; the host's every address is checked before connecting, and again for each
redirect: loopback, private, link-local, multicast and reserved addresses are refused unless the
host is allowed in configuration. Each page has a size and a time limit.

Left open: the name is resolved again when connecting, so a DNS server that answers differently
the second time (DNS rebinding) could still steer a request; pinning the checked address would
close it.
"""

from __future__ import annotations

import ipaddress
import socket
import time
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from pica.stages.web.search import USER_AGENT


class Refused(ValueError):
    """A URL the guard will not fetch, and why."""


@dataclass
class Guard:
    allow_private: bool = False
    allow_hosts: tuple[str, ...] = ()

    def check(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            raise Refused(f"{url}: only http and https pages are read, not '{parts.scheme}'")
        host = (parts.hostname or "").lower()
        if not host:
            raise Refused(f"{url}: no host")
        if self.allow_private or host in self.allow_hosts:
            return
        try:
            addresses = {info[4][0] for info in socket.getaddrinfo(host, parts.port or 80)}
        except socket.gaierror as error:
            raise Refused(f"{url}: cannot resolve {host} ({error.strerror})") from None
        for address in addresses:
            ip = ipaddress.ip_address(address.split("%")[0])
            ip = getattr(ip, "ipv4_mapped", None) or ip
            if not ip.is_global or ip.is_multicast:
                raise Refused(
                    f"{url}: {host} is {address}, a loopback, private or link-local address; "
                    "allow it with providers.pages.allow_hosts or allow_private"
                )


@dataclass
class Page:
    url: str  # where it ended after redirects
    content_type: str
    body: bytes
    truncated: bool


def fetch(url: str, guard: Guard, max_bytes: int, timeout_s: float) -> Page:
    guard.check(url)

    class Checked(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
            guard.check(newurl)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    opener = urllib.request.build_opener(Checked)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "text/html,*/*"})
    deadline = time.monotonic() + timeout_s
    with opener.open(request, timeout=timeout_s) as response:
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}: not read within {timeout_s:g} s")
            chunk = response.read(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        body = b"".join(chunks)
        return Page(
            response.geturl(), response.headers.get_content_type(), body[:max_bytes], size > max_bytes
        )
