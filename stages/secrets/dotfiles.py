"""Per-user tools' settings, as dotfiles keep them: mail clients' password commands that only echo
the password (msmtp, isync, meli), isync's `Pass`, `git config` of a password, IRC clients
(WeeChat's `/secure set`, NickServ's IDENTIFY), lftp's `-u user,password`, curl's config, MPD's
`password@host`, csh's `setenv`, fish's `set -x` and Windows' `setx`, and Anaconda's tokens.
"""

from __future__ import annotations

from pica.stages.secrets.keyed import keyed_value_is_secret
from pica.stages.secrets.rules import (
    LINE_END,
    OUTPUT_LEAD,
    Rule,
    has_digit,
    literal_password,
    random_with_digit,
    rule,
)
from pica.stages.secrets.shapes import QUOTED_OR_BARE, UUID


def token_value(value: str) -> bool:
    """A token's or a key's value as keyed assignments judge one."""
    return keyed_value_is_secret("api_key", "=", value, "")


DOTFILES: list[Rule] = [
    # A password command that only prints a literal: msmtp's `passwordeval "echo '…'"`, isync's
    # `PassCmd "echo …"`, meli's `server_password_command = "echo '…'"`, neomutt's and aerc's
    rule(
        "generic_password",
        "pass",
        r"(?i)pass\w*(?:eval|cmd|command)[\"']?[ \t]*[=: ][ \t]*[\"']echo[ \t]+(?:-n[ \t]+)?"
        r"(?:'([^'\n]{3,200})'|\\?\"([^\"\n\\]{3,200})\\?\"|([^\s'\"|;]{3,200}))[ \t]*[\"']",
        not_after="",
        check=literal_password,
    ),
    # isync's (mbsync's) `Pass …` in an account (isync.sourceforge.io/mbsync.html)
    rule(
        "generic_password",
        "imapaccount imapstore",
        r"(?m)^[ \t]*Pass[ \t]+(?:\"([^\"\n]{3,200})\"|([^\s\"][^\n]{2,200}?))[ \t]*$",
        not_after="",
        check=literal_password,
    ),
    # A passphrase of several words, unquoted to the line's end (s3cmd's `gpg_passphrase = …`)
    rule(
        "generic_password",
        "passphrase pass_phrase",
        r"(?im)^[ \t]*[\w.-]*pass_?phrase[ \t]*[=:][ \t]*([^\s#;'\"\[{$<%][^\n#;]{2,200}?)[ \t]*$",
        not_after="",
        check=lambda value: " " in value and has_digit(value) and literal_password(value),
    ),
    # `git config [--global] sendemail.smtppass '…'`, `… credential.<url>.password …`
    rule(
        "generic_password",
        "git config",
        r"(?i)git[ \t]+config[ \t]+(?:--(?:global|local|system)[ \t]+)?[\w.-]*(?:pass|passwd|password)"
        r"[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=literal_password,
    ),
    # WeeChat's secured data, `/secure set <name> <value>` (weechat.org, user's guide)
    rule(
        "generic_password",
        "/secure set",
        r"/secure[ \t]+set[ \t]+\S+[ \t]+(\S[^\n]{2,200}?)[ \t]*(?:\r?\n|$)",
        not_after=r"\w",
        check=literal_password,
    ),
    # NickServ's `IDENTIFY [account] <password>` (Atheme's and Anope's help)
    rule(
        "generic_password",
        "nickserv",
        r"(?i)nickserv[ \t]+identify[ \t]+(?:[^\s;\"']+[ \t]+)?([^\s;\"']{3,100})",
        not_after=r"\w",
        check=literal_password,
    ),
    # lftp's `-u user,password` (lftp(1)), on its command line or its `open` command
    rule(
        "cli_credentials",
        "lftp open",
        r"(?:lftp|open)\b[^\n]*?[ \t]-u[ \t]+[\"']?[^,\s\"']+,([^\s\"']{3,200})",
        not_after=r"\w",
        check=literal_password,
    ),
    # curl's config file and flag, `oauth2-bearer = …` / `--oauth2-bearer …` (curl(1))
    rule(
        "http_auth_header",
        "oauth2-bearer",
        r"oauth2-bearer[ \t]*[=: ][ \t]*[\"']?([\w+/=.~-]{12,400})",
        not_after=r"\w",
        check=random_with_digit,
    ),
    # MPD's `password@host` in MPD_HOST, ncmpcpp's `mpd_host`, mpc's `-h` (mpc(1))
    rule(
        "generic_password",
        "mpd_host",
        r"(?i)mpd_host[\"']?[ \t]*[=:][ \t]*[\"']?([^@\s\"']{3,200})@[\w.-]+",
        not_after=r"\w",
        check=literal_password,
    ),
    # An environment variable set by csh's `setenv NAME value`, fish's `set -gx NAME value`,
    # Windows' `setx NAME value`, launchctl's `setenv`: judged by its name, as `NAME=value` is
    rule(
        "generic_password",
        "setenv setx set",
        r"(?i)(?:setenv|setx|set[ \t]+-[gxuUl]*x[gxuUl]*)[ \t]+\w*(?:password|passwd|pass|pwd)\w*[ \t]+"
        + QUOTED_OR_BARE,
        not_after=r"\w",
        check=literal_password,
    ),
    rule(
        "generic_api_key",
        "setenv setx set",
        r"(?i)(?:setenv|setx|set[ \t]+-[gxuUl]*x[gxuUl]*)[ \t]+\w*(?:token|secret|api_?key|access_?key)\w*"
        r"[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=token_value,
    ),
    # Anaconda's tokens, two letters and a UUID, in a channel's URL (`…/t/<token>/…`) or as
    # `anaconda auth --create` prints them (docs.anaconda.com, "Tokens")
    rule("generic_api_key", "/t/", r"/t/([a-z]{2}-" + UUID + r")(?![\w-])", not_after=""),
    rule(
        "generic_api_key",
        "anaconda",
        r"anaconda[ \t]+auth[^\n]*\r?\n" + OUTPUT_LEAD + r"([a-z]{2}-" + UUID + r")" + LINE_END,
        not_after="",
    ),
]
