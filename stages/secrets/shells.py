"""What a shell session hands a credential to: a password piped into a command, written to the
file the next command reads, given to a hasher, an archive tool or a package registry's CLI; what
key generators and secret files print; `aws configure`'s answers; "user / password" in notes.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.announced import typed
from pica.stages.secrets.rules import (
    LINE_END,
    OUTPUT_LEAD,
    Rule,
    literal_password,
    random_with_digit,
    rule,
)
from pica.stages.secrets.shapes import (
    QUOTED_OR_BARE,
    UUID,
)

DIGIT_IN_WORD = re.compile(r"[A-Za-z]\d|\d[A-Za-z]")

SHELLS: list[Rule] = [
    # openssl's HMAC key on its command line, `openssl dgst -sha256 -hmac '…'` (openssl-dgst(1))
    rule(
        "cli_credentials",
        "-hmac",
        r"-hmac[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=lambda value: literal_password(value) and not value.startswith("$"),
    ),
    # `printf '%s:%s' <user> <password> | base64`: a Basic login built by hand
    rule(
        "cli_credentials",
        "printf",
        r"printf[ \t]+['\"]%s:%s['\"][ \t]+['\"]?[^\s'\"]+['\"]?[ \t]+" + QUOTED_OR_BARE,
        not_after=r"\w",
        check=literal_password,
    ),
    # Shells: a password written to a file that the next command reads as one (`echo '…' > /tmp/.vp
    # && ansible-vault … --vault-password-file /tmp/.vp`); fish's `set -gx BORG_PASSPHRASE '…'`;
    # the plaintext given to a hasher or an obscurer (`openssl passwd -6 '…'`, `rclone obscure '…'`);
    # an archive's password (`unzip -P …`, `zip -P …`, `7z x -p…`)
    rule(
        "cli_credentials",
        "--vault-password-file --vault-pass-file",
        r"(?:echo|printf)[ \t]+(?P<q>['\"])(?P<secret>[^'\"\n]{3,200})(?P=q)[ \t]*>[ \t]*(?P<file>\S+)"
        r"[^\n]*?--vault-pass(?:word)?-file[ =](?P=file)\b",
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "set -",
        r"(?i)set(?<![\w-]set)[ \t]+-[a-z]+[ \t]+\w*(?:pass(?:word|phrase)?|token|secret|api_?key)\w*[ \t]+"
        + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "passwd obscure",
        r"(?:openssl[ \t]+passwd|rclone[ \t]+obscure)(?:[ \t]+-\S+)*[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "",
        r"(?:unzip(?<![\w-]unzip)|zip(?<![\w-]zip))(?![\w-])[^\n|;&]*?[ \t]-P[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "cli_credentials",
        "7z",
        r"7z(?<![\w-]7z)a?[ \t][^\n|;&]*?[ \t]-p([^\s'\"-]\S{2,200})",
        not_after="",
        check=literal_password,
    ),
    # `aws configure`'s prompt and the answer typed after it
    rule(
        "aws_secret_access_key",
        "aws secret access key [",
        r"AWS Secret Access Key \[[^\]\n]*\]:[ \t]*([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        not_after="",
    ),
    # crates.io's API tokens: `cio` and 32 base62 characters (`cargo login …`)
    rule("generic_api_key", "cio", r"(?<![\w-])cio[A-Za-z0-9]{32}(?![\w-])", check=random_with_digit),
    # Google's app passwords: 16 letters in four groups, for Gmail's SMTP and IMAP, told as one
    # ("app password: xgmc qlti hwzh hhld"); four short words of prose are not (`spam spam spam spam`)
    rule(
        "generic_password",
        "",
        # (on the line after the words too, and as the 16 letters run together: Yahoo's, Microsoft's)
        r"(?i)(?:app[ -]?password|application|aplicación|app-passwort|gmail|google)[^\n]{0,80}?(?:\n[ \t>]*)?"
        r"(?<![\w./-])([a-z]{4}( ?)[a-z]{4}\2[a-z]{4}\2[a-z]{4})(?![\w./-])",
        check=lambda value: (
            verify.few_vowels(value.replace(" ", ""))
            and not verify.sequential_run(value.replace(" ", ""))  # (a manual's `abcd efgh ijkl mnop`)
            and (" " not in value or len(set(value.split())) == 4)
        ),
    ),
    # "user / password" in notes and tickets (`ADMIN / Ipmi$Lighthouse5`, `` `admin` / `Leeds-Branch$410` ``,
    # a Wi-Fi's `CasaAzul-Conf / Azulejo-7788`): a name, a slash between spaces, a typed password.
    # Prose pairs things the same way (`float16 / bfloat16`, `RT-DETR / PP-DocLayoutV3`): a value
    # without a sign such as `$` or `#` needs a login's word before it on its line
    *(
        rule(
            "generic_password",
            "",
            r" / `?([\w!#$%&*@^?+.=~-]{8,60}?)`?(?=[.,;)]*(?:\s|$))",
            near=context + r"(?:^|[\s(:,>])`?[\w.@-]*[A-Za-z][\w.@-]*`?",  # a name: a letter in it
            not_after="",
            # (not code: an attribute, a power, a call, an index)
            check=lambda value, signed=signed: (
                typed(value)
                and re.search(r"[()\[\]]|\*\*", value) is None
                # (an attribute is code, `np.float16`; but a login's `Vend0r.Visit.0331` is a password)
                and (
                    re.search(r"\.[A-Za-z_]", value) is None
                    or (not signed and DIGIT_IN_WORD.search(value.split(".")[0]) is not None)
                    or re.search(r"[!@#$%^&*]", value) is not None  # (no attribute holds `@`: `Sl@te.Moth88`)
                )
                and re.match(r"\d+(?:\.\d+)?[-+*/]", value) is None  # arithmetic: `2.0+term`
                and (not signed or re.search(r"[!#$%&*@^?+=~]", value) is not None)
            ),
        )
        for context, signed in (
            ("", True),
            (
                r"(?i)(?:login|passw\w*|pw|pass|creds?|credentials|wi-?fi|ssid|user\w*|admin|account|console"
                r"|router|ipmi|vpn)\b[^\n]{0,60}?",
                False,
            ),
        )
    ),
    # Package registries: `echo -n 'user:pass' | base64` (npm's `_auth`), Yarn's `npmAuthIdent`
    # (base64 of `user:password`), `npm config set _auth|_password …`, Composer's `http-basic`,
    # `bearer` and `*-oauth` blocks and `composer config`, NuGet's `-k`/`--api-key`, Bundler's
    # `BUNDLE_<HOST>` credentials, conda's `/t/<token>/` channels, `anaconda -t`, skopeo's `--creds`
    rule(
        "cli_credentials",
        "base64",
        r"echo[ \t]+(?:-n[ \t]+)?(['\"])[\w.@-]+:(?P<secret>[^'\"\n]{3,200})\1[ \t]*\|[ \t]*base64\b",
        not_after="",
        # (not a record's fields, `build-4821:passed:2024-05-14`)
        check=lambda value: literal_password(value) and not re.search(r"\d{4}-\d\d-\d\d", value),
    ),
    rule(
        "generic_password",
        "npmauthident _auth",
        r"(?i)(?:npmauthident[\"']?[ \t]*[:=][ \t]*[\"']?|npm[ \t]+config[ \t]+set[ \t]+_auth[ \t=]+)"
        r"([A-Za-z0-9+/]{8,}={0,2})",
        not_after="",
        check=verify.decodes_to_login,
    ),
    rule(
        "generic_password",
        "_password _authtoken",
        r"(?i)npm[ \t]+config[ \t]+set[ \t]+[^\s]*(?:_password|_authtoken)[ \t=]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_password",
        "http-basic.",
        r"(?i)composer[ \t]+config\b[^\n|;&]*?http-basic\.[\w.-]+[ \t]+\S+[ \t]+" + QUOTED_OR_BARE,
        not_after="",
        check=literal_password,
    ),
    rule(
        "generic_api_key",
        "bearer -oauth gitlab-token",
        r"\"(?:bearer|github-oauth|gitlab-oauth|gitlab-token|bitbucket-oauth)\"[ \t]*:[ \t]*\{\s*"
        r"\"[\w.-]+\"[ \t]*:[ \t]*\"([^\"\n]{16,200})\"",
        not_after="",
        check=random_with_digit,
    ),
    rule(
        "cli_credentials",
        "nuget",
        r"(?i)nuget(?<![\w-]nuget)[ \t]+push\b[^\n|;&]*?[ \t](?:-k|--api-key|-apikey)[ \t]+([^\s\"']{8,200})",
        not_after="",
        check=lambda value: random_with_digit(value) or bool(re.fullmatch(UUID, value)),
    ),
    rule(
        "generic_password",
        "bundle_",
        r"BUNDLE_[A-Z0-9_]*__[A-Z0-9_]+[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"']{8,200})",
        not_after="",
        check=lambda value: random_with_digit(value) or literal_password(value.split(":")[-1]),
    ),
    rule("generic_api_key", "anaconda.org/t/", r"anaconda\.org/t/([\w-]{20,100})/?", not_after=""),
    rule(
        "cli_credentials",
        "anaconda",
        r"anaconda(?<![\w-]anaconda)[ \t]+(?:-\S+[ \t]+)*?-t[ \t]+([\w-]{20,100})",
        not_after="",
    ),
    rule(
        "cli_credentials",
        "creds",
        r"--(?:src-|dest-)?creds[ =][\"']?[^\s:'\"]+:([^\s'\"]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # ngrok's authtoken given to its CLI
    rule(
        "cli_credentials",
        "ngrok",
        r"ngrok(?<![\w-]ngrok)[ \t]+(?:config[ \t]+add-authtoken|authtoken)[ \t]+([\w-]{20,200})",
        not_after="",
    ),
    # A secret file printed by `cat` (`sudo cat /etc/ldap.secret`, `cat /run/secrets/db_password`)
    rule(
        "generic_password",
        "cat ",
        r"cat(?<![\w-]cat)[ \t]+(?![\w./~-]*\.gpg-id\b)[\w./~-]*"  # (pass's `.gpg-id` names a key)
        r"(?:secret|passw(?:or)?d|\.pass\b|[-_.]pw\b|passphrase|token|credential|\.key\b)"
        r"[\w./~-]*[ \t]*\r?\n" + OUTPUT_LEAD + r"([^\s$#][^\s]{5,200})" + LINE_END,
        not_after="",
        check=literal_password,
    ),
]
