"""Redaction of secrets drawn at random rather than taken from examples: do the rules hold for the
format, or only for the samples they were written on?

    python docs/measure/redaction_formats.py [--seed N] [--draws N] [--show]

Two parts, both seeded:

* keyed: random values (hex, HEX, base62, lowercase+digits, base64, base64url, and a password
  alphabet with `!@#%^&*-_`) of 8 to 64 characters, under 20 secret names, in 14 layouts (`.env`,
  `export`, YAML, JSON, Python, Go `:=`, PHP `=>`, XML elements, batch `set`, …). Prints the share
  missed by alphabet and length.
* provider formats: for each rule of `TOKENS` (self-identifying formats), strings drawn at random
  from the rule's own pattern (its literal prefix kept, each character class and repeat drawn
  uniformly), standing alone on a line. A rule that misses its own random draws has checks fitted
  to examples. Misses by design: JWTs and base64 PEM blocks (a random body does not decode to a
  header), and rules gated on a context word (Facebook, Vault's `s.` tokens) that a lone line lacks.
"""

from __future__ import annotations

import random
import re._constants as C
import re._parser as P
import string
import sys
from collections import Counter

from pica.stages.secrets import find_secrets
from pica.stages.secrets.rules import TOKENS

ALPHABETS = {
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "base62": string.ascii_letters + string.digits,
    "lower36": string.ascii_lowercase + string.digits,
    "base64": string.ascii_letters + string.digits + "+/",
    "base64url": string.ascii_letters + string.digits + "-_",
    "password": string.ascii_letters + string.digits + "!@#%^&*-_",
}
LENGTHS = (8, 10, 12, 16, 20, 24, 32, 40, 64)
NAMES = [
    "api_key",
    "apiKey",
    "API_TOKEN",
    "secret",
    "client_secret",
    "auth_token",
    "access_token",
    "password",
    "db_password",
    "SECRET_KEY",
    "token",
    "private_token",
    "app_secret",
    "webhook_secret",
    "passwd",
    "pwd",
    "credentials",
    "AUTH_KEY",
    "signing_key",
    "encryption_key",
]
LAYOUTS = (
    "{n}={v}",
    "export {n}={v}",
    "{n}: {v}",
    '{n}: "{v}"',
    '"{n}": "{v}",',
    "{n} = '{v}'",
    '{n} := "{v}"',
    "<{n}>{v}</{n}>",
    '{n}="{v}"',
    "  {n}: '{v}'",
    "set {n}={v}",
    "{n} => '{v}',",
    'const {n} = "{v}";',
    '{n}: str = "{v}"',
)


def found(text: str, at: int) -> bool:
    return any(start <= at < end for start, end, _ in find_secrets(text))


def keyed(rng: random.Random, draws: int, show: bool) -> None:
    missed: Counter[tuple[str, int]] = Counter()
    tried: Counter[tuple[str, int]] = Counter()
    for _ in range(draws):
        alphabet = rng.choice(list(ALPHABETS))
        length = rng.choice(LENGTHS if alphabet != "password" else LENGTHS[:4])
        value = "".join(rng.choice(ALPHABETS[alphabet]) for _ in range(length))
        name = rng.choice(NAMES)
        line = rng.choice(LAYOUTS).format(n=name, v=value)
        text = f"config\n{line}\nmore\n"
        tried[alphabet, length] += 1
        if not found(text, text.index(value, text.index(name) + len(name))):
            missed[alphabet, length] += 1
            if show:
                print("   missed:", line)
    print(f"keyed: {sum(missed.values())} of {sum(tried.values())} missed")
    print("  " + "alphabet".ljust(10) + "".join(f"{n:>7}" for n in LENGTHS))
    for alphabet in ALPHABETS:
        cells = [
            f"{missed[alphabet, n] / tried[alphabet, n]:7.0%}" if tried[alphabet, n] else "      -"
            for n in LENGTHS
        ]
        print("  " + alphabet.ljust(10) + "".join(cells))


CATEGORIES = {
    C.CATEGORY_DIGIT: string.digits,
    C.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    C.CATEGORY_SPACE: " ",
    C.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}


def members(items: list) -> list[str]:
    out: set[str] = set()
    for op, arg in items:
        if op is C.LITERAL:
            out.add(chr(arg))
        elif op is C.RANGE:
            out.update(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is C.CATEGORY:
            out.update(CATEGORIES.get(arg, ""))
    return sorted(out)


def draw(items: list, rng: random.Random) -> str:
    """A random string matching the parsed pattern (ASCII; lookarounds skipped)."""
    out = []
    for op, arg in items:
        if op is C.LITERAL:
            out.append(chr(arg))
        elif op is C.IN:
            if arg[0][0] is C.NEGATE:
                out.append(rng.choice([c for c in ALPHABETS["base62"] if c not in members(arg[1:])]))
            else:
                out.append(rng.choice(members(arg)))
        elif op is C.ANY or op is C.NOT_LITERAL:
            out.append(rng.choice([c for c in ALPHABETS["base62"] if op is C.ANY or ord(c) != arg]))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            low, high, sub = arg
            high = low + 3 if high == C.MAXREPEAT else high
            out += [draw(list(sub), rng) for _ in range(rng.randint(low, min(high, low + 60)))]
        elif op is C.SUBPATTERN:
            out.append(draw(list(arg[3]), rng))
        elif op is C.BRANCH:
            out.append(draw(list(rng.choice(arg[1])), rng))
        elif op is C.CATEGORY:
            out.append(rng.choice(CATEGORIES.get(arg, "a")))
    return "".join(out)


def formats(rng: random.Random, per_rule: int, show: bool) -> None:
    missed_rules, total, missed = [], 0, 0
    for rule in TOKENS:
        tree = list(P.parse(rule.pattern.pattern, rule.pattern.flags))
        grow = rule.grow and list(P.parse(rule.grow.pattern.replace("\\Z", ""), rule.grow.flags))
        misses = made = 0
        for _ in range(per_rule * 3):
            sample = (draw(grow, rng) if grow else "") + draw(tree, rng)
            match = rule.pattern.search(sample.lower() if rule.lowered else sample)
            if match is None:
                continue  # a draw that a lookaround rules out
            made += 1
            text = f"value\n{sample} \n"
            group = rule.pattern.groupindex.get("secret") or next(
                (g for g in range(1, rule.pattern.groups + 1) if match.group(g)), 0
            )
            at = 6 if grow else 6 + match.start(group)
            misses += not found(text, at)
            if made == per_rule:
                break
        total, missed = total + made, missed + misses
        if made and misses:
            missed_rules.append(f"{rule.kind} ({misses}/{made})")
    rules = f"by {len(missed_rules)} of {len(TOKENS)} rules"
    print(f"provider formats: {missed} of {total} random draws missed, {rules}")
    if show:
        print("  " + ", ".join(missed_rules))


def main(argv: list[str]) -> None:
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    draws = int(argv[argv.index("--draws") + 1]) if "--draws" in argv else 6000
    show = "--show" in argv
    keyed(random.Random(seed), draws, show)
    formats(random.Random(seed), 40, show)


if __name__ == "__main__":
    main(sys.argv[1:])
