"""Bytes to text for files of unknown encoding: BOMs, BOM-less UTF-16/32, UTF-8, the common
legacy encodings, then a guess among all. And terminal codes out of text, wherever it comes from."""

from __future__ import annotations

import codecs
import re

from pica.stages.readers.base import Unreadable

BOMS = [  # longest first: the UTF-32 LE BOM begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]


# The legacy encodings most files are in, tried before the rest (a tie goes to the earlier one).
COMMON = [
    "cp1252", "latin_1", "cp1250", "iso8859_2", "cp1251", "koi8_r", "cp1253", "cp1254", "cp1255",
    "cp1256", "cp1257", "gb18030", "big5", "shift_jis", "euc_jp", "euc_kr",
]  # fmt: skip

MIXED = re.compile(r"[A-Za-z][\u0370-\u06ff]|[\u0370-\u06ff][A-Za-z]")  # Greek to Arabic
EDGES = re.compile(r"^\W+|\W+$")  # punctuation around a word, stripped before judging it

# Terminal control sequences that command output carries: CSI (colours, cursor, erase), OSC
# (titles, hyperlinks; ended by BEL or ESC \), DCS/SOS/PM/APC strings, two-byte escapes, lone ESC.
TERMINAL_CODES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
)


class UndecodableError(Unreadable):
    pass


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read as. Raises UndecodableError for binary data."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    wide = _bomless_wide_encoding(data)
    if wide:
        return data.decode(wide, errors="replace"), wide
    if b"\x00" in data:
        raise UndecodableError("binary data (NUL bytes), not text")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # cp1252 (and so latin-1) first when the text reads as Western European: charset_normalizer's
    # measure rejects plain Finnish ("Hyvää") and ranks Arabic (cp1256), Central European
    # (cp1250) or hp_roman8 ("Vielð") readings of such text above the right one.
    try:
        western = data.decode("cp1252")
    except UnicodeDecodeError:
        western = ""
    if western and _reads_as_western(western):
        return western, "cp1252"
    from charset_normalizer import from_bytes

    # Then the other common encodings, best first by its measure; a Latin letter glued to a
    # Cyrillic or Arabic one ("Hyvдд") is a misreading however it scores.
    common = [m for m in from_bytes(data, cp_isolation=COMMON) if not MIXED.search(str(m))]
    if common:
        ties = [m for m in common if not common[0] < m]  # as good as the best by that measure
        best = min(ties, key=lambda m: (-m.coherence, COMMON.index(m.encoding)))
        return str(best), best.encoding
    best = from_bytes(data).best()  # the exotic ones last
    if best is None:
        raise UndecodableError("no text encoding fits these bytes")
    return str(best), best.encoding


def _reads_as_western(text: str) -> bool:
    """Western European text: its non-ASCII characters are letters, in words that also hold ASCII
    letters. Greek, Cyrillic or CJK bytes read as cp1252 make words of accented letters only;
    Polish ones put symbols inside words (ą, ł, ż as ¹, ³, ¿). And at most one word with ý, þ or
    ð, which only Icelandic uses but Czech (ý), Turkish and Croatian read as cp1252 are full of."""
    words = bad = icelandic = 0
    for token in text.split():
        word = EDGES.sub("", token)
        if word.isascii():
            continue
        words += 1
        foreign = [c for c in word if not c.isascii()]
        latin = any(c.isascii() and c.isalpha() for c in word)
        bad += not all(c.isalpha() for c in foreign) or (len(word) >= 3 and not latin)
        icelandic += any(c in "ýÝþÞðÐ" for c in foreign)
    return bad <= words // 10 and icelandic <= 1


def strip_terminal_codes(text: str) -> str:
    """Text without the colour and control sequences of terminal output (`\\x1b[1m` ...)."""
    return TERMINAL_CODES.sub("", text) if "\x1b" in text else text


def _bomless_wide_encoding(data: bytes) -> str | None:
    """UTF-16/32 without a BOM shows as NUL bytes in fixed positions for mostly-ASCII text."""
    sample = data[:4096]
    if len(sample) < 4 or b"\x00" not in sample:  # UTF-8 and legacy text never hold NUL
        return None
    for encoding, width, zero_at in (
        ("utf-32-le", 4, (1, 2, 3)),
        ("utf-32-be", 4, (0, 1, 2)),
        ("utf-16-le", 2, (1,)),
        ("utf-16-be", 2, (0,)),
    ):
        units = [sample[i : i + width] for i in range(0, len(sample) - width + 1, width)]
        ascii_like = sum(all(u[z] == 0 for z in zero_at) and any(u) for u in units)
        if units and ascii_like / len(units) > 0.6:
            try:
                data.decode(encoding)
            except UnicodeDecodeError:
                continue
            return encoding
    return None
