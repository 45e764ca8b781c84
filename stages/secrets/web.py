"""Browsers, frontends and their logs: Netscape cookie files and cookies built in code, storage
read in a console, Chromatic's and Cypress' record keys, a VAPID private key beside its public key
in a bundle, a password URL-encoded into a connection string in code, Spring Boot's binding
failure report, and SMTP's AUTH LOGIN exchange.
"""

from __future__ import annotations

import base64
import binascii

from pica.stages.secrets.rules import LINE_END, SESSION_COOKIE, E, Rule, literal_password, rule, session_value
from pica.stages.secrets.shapes import UUID


def login_answer(value: str) -> bool:
    """The client's answer to `334 UGFzc3dvcmQ6` ("Password:"): base64 of a password."""
    try:
        decoded = base64.b64decode(value, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return False
    return decoded.isprintable() and literal_password(decoded)


WEB: list[Rule] = [
    # A Netscape cookie file (curl's, wget's, yt-dlp's `cookies.txt`): domain, subdomains, path,
    # secure, expiry, name, value, tab-separated
    rule(
        "session_cookie",
        "true false",
        r"(?i)\t(?:true|false)\t[^\t\n]*\t(?:true|false)\t\d+\t" + SESSION_COOKIE + r"\t([^\s]{16,400})",
        not_after="",
        check=session_value,
    ),
    # ... and a cookie built in code: PowerShell's `System.Net.Cookie("PHPSESSID", "…", …)`,
    # Puppeteer's and Playwright's `{ name: 'sid', value: '…' }`
    rule(
        "session_cookie",
        "cookie( name:",
        r"(?i)(?:cookie\(\s*[\"']|name:[ \t]*[\"'])" + SESSION_COOKIE + r"[\"'][ \t]*,[ \t]*(?:value:[ \t]*)?"
        r"[\"']([\w%.~+/:!*-]{16,400}={0,2})[\"']",
        not_after=r"\w",
        check=session_value,
    ),
    # A value read from the browser's storage in a console: `sessionStorage.getItem('bk_api_key')`,
    # then its answer on the next line
    rule(
        "generic_api_key",
        "getitem(",
        r"(?i)getitem\(\s*[\"'][\w.-]*(?:key|token|secret|password|auth)[\w.-]*[\"']\s*\)[^\n]*\r?\n[ \t<>]*"
        r"[\"']?([A-Za-z0-9_.+/=-]{16,400})[\"']?" + LINE_END,
        not_after="",
        check=literal_password,
    ),
    # Chromatic's project token, `chpt_` and 14 hex digits (chromatic.com, "Project token")
    rule("generic_api_key", "chpt_", r"chpt_[0-9a-f]{14,40}" + E, not_after=r"\w"),
    # Cypress Cloud's record key, `cypress run --record --key <uuid>` (docs.cypress.io)
    rule(
        "generic_api_key",
        "cypress",
        r"cypress\b[^\n]*?--key[ =]['\"]?(" + UUID + r")",
        not_after=r"\w",
    ),
    # A VAPID key pair in a bundle: the public key (65 bytes, base64url, `B…`) then the private one
    # (32 bytes) as the next literal (RFC 8292)
    rule(
        "generic_api_key",
        "",
        r"[\"']B[A-Za-z0-9_-]{86}[\"'][^\"'\n]{0,20}[\"']([A-Za-z0-9_-]{43})[\"']",
        not_after="",
    ),
    # A password URL-encoded into a connection string in code,
    # `"mongodb+srv://user:" + encodeURIComponent("…") + "@host/…"`
    rule(
        "url_with_credentials",
        "encodeuricomponent(",
        r"://[^\"'\s:@/]+:[\"'][ \t]*\+[ \t]*encodeURIComponent\([ \t]*[\"']([^\"'\n]{3,200})[\"'][ \t]*\)",
        not_after="",
        check=literal_password,
    ),
    # Spring Boot's failure analysis: `Property: spring.datasource.password` then `Value: "…"`
    rule(
        "generic_password",
        "property:",
        r"(?i)property:[ \t]*[\w.-]*(?:password|secret|token|key)\r?\n"
        r"[ \t]*value:[ \t]*\"?([^\"\n]{3,200})\"?",
        not_after=r"\w",
        check=literal_password,
    ),
    # SMTP's AUTH LOGIN: the server asks `334 UGFzc3dvcmQ6` ("Password:"), the client answers with
    # the password in base64 on the next line (RFC 4954; PHPMailer's and swaks' debug output)
    rule(
        "generic_password",
        "334 ugfzc3dvcmq6",
        r"334 UGFzc3dvcmQ6[^\n]*\r?\n[^\n]*?([A-Za-z0-9+/]{8,}={0,2})[ \t]*(?=\r?\n|$)",
        not_after="",
        check=login_answer,
    ),
]
