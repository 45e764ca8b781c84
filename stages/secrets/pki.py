"""Certificates, keystores and hardware tokens: OpenSSL's `pass:` arguments, keytool's store and
key passwords, a PKCS#11 URI's `pin-value`, the PINs, PUKs and management keys given to smart card
and HSM tools, a PKCS#12 export's password in code, an HSM session's login, code signing's `/p`
and `-pass`, and ACME's External Account Binding key.
"""

from __future__ import annotations

import re

from pica.stages.secrets import verify
from pica.stages.secrets.rules import (
    Rule,
    commands,
    literal_password,
    random_or_typed,
    random_with_digit,
    rule,
)

# An argument on a command line, or a quoted one in an argument list (`"-storepass", "…"`); a lone
# `&` between letters is a character here (`Granite&Moss47`), not the shell's operator
ARGUMENT = r"[\"']?[, \t]+[\"']?([^\s\"',;|<>()&$`]+(?:&[A-Za-z0-9][^\s\"',;|<>()&$`]*)*)"


def pin(value: str) -> bool:
    """A PIN or a password given to a token: four digits or more, or a password, or a key in hex;
    not a variable (`$SO_PIN`), a prompt's stand-in or a file."""
    if value.startswith(("$", "{", "<", "%", "@")) or verify.is_stand_in(value):
        return False
    if re.search(r"[\[(]", value) or re.fullmatch(r"[a-z_][\w.]*", value):
        return False  # code: `entered_pin = request.args["pin"]`
    return bool(re.fullmatch(r"\d{4,12}", value)) or random_or_typed(value)


PKI: list[Rule] = [
    # OpenSSL's `-passin pass:…`, `-passout pass:…`, `-pass pass:…` (openssl-passphrase-options(1))
    rule(
        "cli_credentials",
        "pass:",
        r"(?i)-pass(?:in|out|word)?[\"']?[, \t]+[\"']?pass:([^\s\"',;|<>()]{3,200})",
        not_after="",
        check=literal_password,
    ),
    # keytool's `-storepass`, `-keypass`, `-srcstorepass`, `-deststorepass`, `-storepasswd -new …`
    rule(
        "cli_credentials",
        "storepass keypass",
        r"(?i)-(?:src|dest)?(?:store|key)pass(?:wd)?(?:[ \t]+-new)?" + ARGUMENT,
        not_after=r"\w-",
        check=lambda value: len(value) >= 4 and literal_password(value),
    ),
    # A PKCS#11 URI's PIN (RFC 7512, `pin-value`)
    rule("cli_credentials", "pin-value", r"(?i)pin-value=([^;?&\"'\s]{3,100})", not_after="", check=pin),
    # The PINs, PUKs and keys given to smart card and HSM tools: `--pin`, `--so-pin`, `--puk`,
    # `--new-pin`, `--management-key` (pkcs11-tool, pkcs15-tool, softhsm2-util, ykman)
    rule(
        "cli_credentials",
        "--pin --so-pin --puk --new-pin --management-key",
        r"(?i)--(?:pin|so-pin|puk|new-pin|management-key)[= ][\"']?([^\s\"']{4,100})",
        not_after=r"\w-",
        check=pin,
    ),
    # ... and their short options: pkcs11-tool's `-p`, yubico-piv-tool's `-P` (PIN) and `-k`
    # (management key), ykman's `-m`, certutil's `-pin`, pk12util's `-W`/`-K`, signtool's `/p`,
    # osslsigncode's `-pass`, loginHSM's `-p`
    *commands("pkcs11-tool", r"\s-p\s+"),
    *commands("yubico-piv-tool", r"\s-[PkN]\s*"),
    *commands("ykman", r"\s-[mP]\s+"),
    *commands("certutil", r"\s-pin\s+"),
    *commands("pk12util", r"\s-[WK]\s+"),
    *commands("signtool", r"\s/p\s+"),
    *commands("osslsigncode", r"\s-pass\s+"),
    *commands("loginhsm", r"\s-p\s+"),
    # AWS CloudHSM's `loginHSM CU <user> <password>`
    rule(
        "cli_credentials",
        "loginhsm",
        r"(?i)loginhsm[ \t]+(?:cu|co|au|pco|pro)[ \t]+\S+[ \t]+(\S{4,100})",
        not_after="",
        check=literal_password,
    ),
    # A PIN or an HSM's user and password in a variable (`CLOUDHSM_PIN=user:…`, `YUBIHSM_PIN=0005…`)
    rule(
        "generic_password",
        "_pin",
        r"(?i)_pin[\"']?[ \t]*[=:][ \t]*[\"']?(?:[\w-]{1,64}:)?([^\s\"'$]{4,100})",
        not_after="",
        check=pin,
    ),
    # A PKCS#12 export's password in code: Python's `BestAvailableEncryption(b"…")`, Go's
    # `pkcs12.Modern.Encode(…, "…")`, .NET's `Export(X509ContentType.Pfx, "…")`, node-forge's
    # `toPkcs12Asn1(key, certs, '…')`
    rule(
        "generic_password",
        "bestavailableencryption pkcs12 x509contenttype",
        r"(?i)(?:bestavailableencryption\(\s*b?|pkcs12\.\w+\.encode\([^\n]*?,\s*|x509contenttype\.(?:pfx|pkcs12)\s*,\s*"
        r"|topkcs12asn1\([^,\n]+,[^,\n]+,\s*)[\"']([^\"'\n]{3,100})[\"']",
        not_after="",
        check=literal_password,
    ),
    # A token's or an HSM's login in code: python-pkcs11's `open(user_pin='…')`, PyKCS11's and
    # Pkcs11Interop's `login("…")`, cryptoki's `AuthPin::new("…")`, YubiHSM's
    # `create_session_derived(id, "…")` and `NewSessionManager(connector, id, "…")`
    rule(
        "generic_password",
        "user_pin so_pin .login( authpin create_session_derived newsessionmanager",
        r"(?i)(?:(?:user|so)_pin\s*=\s*|authpin::new\(\s*|\.login\((?:\s*cku\.\w+\s*,)?\s*"
        r"|create_session_derived\(\s*\d+\s*,\s*|newsessionmanager\([^,\n]+,\s*\d+\s*,\s*)[\"']([^\"'\n]{3,100})[\"']"
        r"(?:\.\w+\(\))?\s*\)",  # (the last argument: `server.login('user', 'pw')` is a login call's)
        not_after="",
        check=literal_password,
    ),
    # ACME's External Account Binding key (RFC 8555, 7.3.4): `--eab-hmac-key`, `-ExtAcctHMACKey`
    rule(
        "generic_api_key",
        "eab-hmac-key eab_hmac_key extaccthmackey",
        r"(?i)(?:--eab[-_]hmac[-_]key|-extaccthmackey)[= ][\"']?([A-Za-z0-9_-]{20,200})",
        not_after="",
        check=random_with_digit,
    ),
]
