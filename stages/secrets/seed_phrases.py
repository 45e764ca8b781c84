"""BIP-39 seed phrases: 12 to 24 words from a list of 2,048, from which every key of a wallet is
derived (github.com/bitcoin/bips, bip-0039.mediawiki)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from importlib import resources


@cache
def bip39_words() -> frozenset[str]:
    """BIP-39's English list of 2,048 words (github.com/bitcoin/bips, bip-0039/english.txt)."""
    listing = resources.files("pica.stages.secrets").joinpath("bip39_english.txt").read_text()
    return frozenset(listing.split())


# Words that name a seed phrase near it: a phrase is looked for only in text that holds one
PHRASE_WORDS = frozenset(
    (
        "mnemonic",
        "seed",
        "recovery phrase",
        "wallet",
        "bip39",
        "bip-39",
        "ledger",
        "trezor",
        "metamask",
    )
)
WORD_RUN = re.compile(r"\b[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,}")


def find_seed_phrases(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, class) of each BIP-39 seed phrase: 12 to 24 words in a row (a multiple of 3),
    every one of them from the list. Prose never strings 12 of them together: the list holds no
    "the", "and", "of", "to", "is" or "a"."""
    named = sorted(at.start() for word in PHRASE_WORDS for at in re.finditer(re.escape(word), lowered))
    if not named:
        return
    words = bip39_words()
    for run in runs_near(text, named):
        listed: list[re.Match[str]] = []
        for word in [*re.finditer(r"[a-z]+", run[0]), None]:
            if word is not None and word[0] in words:
                listed.append(word)
                continue
            if len(listed) >= 12:
                kept = listed[: min(24, len(listed) // 3 * 3)]
                yield run.start() + kept[0].start(), run.start() + kept[-1].end(), "private_key"
            listed = []


def runs_near(text: str, named: list[int]) -> Iterator[re.Match[str]]:
    """Runs of short words within a few lines of where a phrase is named (a phrase is written
    beside its name: a scan of the whole text would read every word of every transcript)."""
    end = 0
    for at in named:
        start = max(at - 300, end)
        stop = min(len(text), at + 1500)
        if stop <= start:
            continue
        yield from WORD_RUN.finditer(text, start, stop)
        end = stop
