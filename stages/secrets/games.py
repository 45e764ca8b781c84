"""Game servers and live streaming: stream keys in ingest URLs and their providers' formats
(Twitch, YouTube, Kick and Amazon IVS, Restream, Facebook Live), Steam's game server login tokens,
Cfx.re's FiveM license keys, Tebex's secret, RCON passwords given to srcds, mcrcon, ARK's console
and Rust's WebRCON, AMP's instance manager, and obs-websocket's connect call.
"""

from __future__ import annotations

from pica.stages.secrets import verify
from pica.stages.secrets.rules import E, Rule, literal_password, random_with_digit, rule
from pica.stages.secrets.shapes import QUOTED_OR_BARE

GAMES: list[Rule] = [
    # A stream key as the last part of an RTMP/SRT ingest URL, after its application
    # (`rtmp://live.twitch.tv/app/<key>`, YouTube's `/live2/<key>`, Facebook's `/rtmp/<key>`,
    # IVS's and Kick's `/app/<key>`, Restream's and nginx-rtmp's `/live/<key>`): machine-made
    rule(
        "stream_key",
        "rtmp:// rtmps://",
        r"rtmps?://[^\s/'\"]+/(?:[\w.-]+/)*?(?:app|live2?|rtmp|stream|publish)/([\w-]{12,200})(?=[\s'\";?]|$)",
        not_after="",
        check=random_with_digit,
    ),
    # Amazon IVS's (and Kick's) stream key, `sk_<region>_<12>` (docs.aws.amazon.com/ivs, "Stream key")
    rule(
        "stream_key",
        "sk_",
        r"sk_[a-z]{2}(?:-[a-z]+)+-\d_[A-Za-z0-9]{12,40}(?:_[A-Za-z0-9]{12,40})?(?!\w)",
        not_after=r"\w",
        check=lambda key: verify.typed_runs(key) < 4,  # (not the AWS CLI's `…_abcdABCDefgh_567890abcdef`)
    ),
    # Restream's, `re_<account>_<20 hex>` (restream.io, "Stream key")
    rule("stream_key", "re_", r"re_\d{5,10}_[0-9a-f]{20,40}" + E, not_after=r"\w"),
    # YouTube's, five groups of four, given after the ingest URL's variable (`"$YT_URL/…"`) or
    # where a YouTube stream is set up (YouTube Studio, "Stream key")
    rule(
        "stream_key",
        "youtube yt_url live2",
        r"(?<![\w-])([a-z0-9]{4}(?:-[a-z0-9]{4}){4})(?![\w-])",
        not_after="",
        check=lambda key: sum(any(c.isdigit() for c in group) for group in key.split("-")) >= 2,
    ),
    # Steam's game server login token (GSLT): 32 hex digits given to `sv_setsteamaccount`
    # (developer.valvesoftware.com, "Steam Game Server Account Management"), or named GSLT
    rule(
        "steam_gslt",
        "sv_setsteamaccount",
        r"sv_setsteamaccount[ \t]+\"?([0-9A-Fa-f]{32})" + E,
        not_after="",
    ),
    rule("steam_gslt", "gslt", r"(?i)gslt\b[^\n]{0,60}?[:=][ \t]*\"?([0-9a-f]{32})" + E, not_after=""),
    # Cfx.re Keymaster's FiveM/RedM server license key (`sv_licenseKey "cfxk_…"`)
    rule("fivem_license_key", "cfxk_", r"cfxk_[A-Za-z0-9]{16,40}_[A-Za-z0-9]{4,12}" + E, not_after=r"\w"),
    # Tebex's server secret, 40 hex digits (`sv_tebexSecret …`, `tebex:secret …`)
    rule(
        "generic_api_key",
        "tebexsecret tebex:secret",
        r"(?i)(?:sv_tebexsecret|tebex:secret)[ \t]+\"?([0-9a-f]{40})" + E,
        not_after="",
    ),
    # srcds' and FiveM's RCON password on the command line, `+rcon_password …` (Valve's
    # "Command line options"); mcrcon's `-p` (Tiiffi/mcrcon) and its Python namesake's
    # `MCRcon(host, password)`; ARK's console `enablecheats <admin password>`
    rule(
        "generic_password",
        "+rcon_password",
        r"\+rcon_password[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "mcrcon",
        r"mcrcon\b[^\n]*?[ \t]-p[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "mcrcon(",
        r"(?i)mcrcon\(\s*[\"'][^\"'\n]+[\"']\s*,\s*[\"']([^\"'\n]{3,200})[\"']",
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "enablecheats",
        r"(?i)enablecheats[ \t]+([^\s\"']{3,200})",
        not_after=r"\w",
        check=literal_password,
    ),
    # Rust's WebRCON takes the password as the URL's path, `ws://host:28016/<password>` (Facepunch)
    rule(
        "generic_password",
        "webrcon 28016",
        r"wss?://[\w.-]+:\d{2,5}/([^\s/'\"?#]{6,200})(?=[\s'\"]|$)",
        not_after="",
        check=literal_password,
    ),
    # AMP's instance manager, `ampinstmgr quick <user> <password> <port>` (CubeCoders' docs)
    rule(
        "generic_password",
        "ampinstmgr",
        r"ampinstmgr[ \t]+-?-?quick[ \t]+\S+[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    # obs-websocket-js' and similar clients' `connect(url, password)`
    rule(
        "generic_password",
        ".connect(",
        r"\.connect\(\s*[\"'`]wss?://[^\"'`\s]+[\"'`]\s*,\s*[\"'`]([^\"'`\n]{3,200})[\"'`]",
        not_after="",
        check=literal_password,
    ),
]
