"""Secret detection and redaction: provider token formats, credential-bearing syntax, keyed
assignments (docs/redaction.md).

`find_secrets(text)` returns (start, end, class) spans; `redact(text)` replaces each with
`[REDACTED:<class>]`. Rules are tried in order (provider tokens, provider contexts, credential
syntax, keyed assignments); a span overlapping an earlier one is dropped.

Speed (docs/benchmarks.md, "Redaction speed"): a rule whose pattern starts with literals runs
as is, since the regex engine searches for a literal prefix as fast as for a keyword; any other
rule runs only when one of its keywords occurs in the lowercased text (gitleaks' keyword
prefilter). Case-insensitive rules match the lowercased text, where the engine can still use
their literal prefix.
"""

from __future__ import annotations

import re
from collections import Counter

from pica.stages.secrets.keyed import find_keyed
from pica.stages.secrets.rules import CONTEXTUAL, GOOGLE_PUBLIC_KEYS, STRUCTURES, TOKENS, Rule
from pica.stages.secrets.verify import TEMPLATE, entropy, token_is_stand_in

RULES: list[Rule] = TOKENS + CONTEXTUAL + STRUCTURES
KEYWORDS: tuple[str, ...] = tuple(sorted({k for r in RULES for k in r.keywords}))
# Lowercase ASCII only, so offsets in the lowered text are offsets in the text.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def lower(text: str) -> str:
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(ASCII_LOWER)


def _secret_span(rule: Rule, text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The secret's span in a rule's match, or None when a check rejects it."""
    group = next((g for g in range(1, rule.pattern.groups + 1) if match.group(g)), 0)
    start, end = match.span(group)
    before = text[match.start() - 1 : match.start()]
    if rule.grow is not None:
        grown = rule.grow.search(text, max(0, start - 64), start)
        if grown is None:
            return None
        start = grown.start()
        before = text[start - 1 : start]
    if before in rule.not_after or (rule.not_after and not before.isascii() and before.isalnum()):
        return None  # glued to the end of a longer word
    secret = text[start:end]
    if rule.trusted is not None and rule.trusted(secret):
        return start, end
    if rule.check is not None and not rule.check(secret):
        return None
    if entropy(secret) < rule.min_entropy or token_is_stand_in(secret):
        return None
    # psexec -p %VAR% is a password for Nosey Parker; elsewhere a template is not a secret
    if group and rule.kind != "cli_credentials" and TEMPLATE.search(secret):
        return None
    return start, end


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    """(start, end, class) of every secret in `text`, sorted, non-overlapping."""
    lowered = lower(text)
    present = {k for k in KEYWORDS if k in lowered}
    spans: list[tuple[int, int, str]] = []

    def add(start: int, end: int, kind: str) -> None:
        if end > start and not any(s < end and start < e for s, e, _ in spans):
            spans.append((start, end, kind))

    for rule in RULES:
        if rule.keywords and not any(k in present for k in rule.keywords):
            continue
        for match in rule.pattern.finditer(lowered if rule.lowered else text):
            if rule.near and not rule.near.search(lowered, max(0, match.start() - 60), match.start()):
                continue
            span = _secret_span(rule, text, match)
            if span is not None:
                add(*span, rule.kind)
    for start, end, kind in find_keyed(text, lowered):
        if text[start:end] not in GOOGLE_PUBLIC_KEYS:  # published keys stay public under any name
            add(start, end, kind)
    return sorted(spans)


def redact(text: str, found: Counter[str] | None = None) -> str:
    """The text with each secret replaced by [REDACTED:<class>] (counted into `found`), the same
    object when there is none. A multi-line secret (a PEM block) leaves its line breaks behind, so
    the line numbers of what follows still match the source."""
    spans = find_secrets(text)
    if not spans:
        return text
    parts, last = [], 0
    for start, end, kind in spans:
        if found is not None:
            found[kind] += 1
        parts += [text[last:start], f"[REDACTED:{kind}]", "\n" * text.count("\n", start, end)]
        last = end
    parts.append(text[last:])
    return "".join(parts)
