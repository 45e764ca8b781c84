"""Bytes to text for files of unknown encoding: BOMs, BOM-less UTF-16/32, UTF-8, then a guess."""

from __future__ import annotations

import codecs

from pica.stages.readers.base import Unreadable

BOMS = [  # longest first: the UTF-32 LE BOM begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
]


COMMON = ["cp1252", "iso8859_1", "iso8859_15", "cp1251", "gb18030", "shift_jis", "euc_kr", "big5"]


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
    from charset_normalizer import from_bytes

    matches = from_bytes(data)
    best = matches.best()
    if best is None:
        raise UndecodableError("no text encoding fits these bytes")
    # Several code pages often fit equally well; prefer the ones most files are written in.
    ties = [m for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)]
    best = min(ties, key=lambda m: COMMON.index(m.encoding) if m.encoding in COMMON else len(COMMON))
    return str(best), best.encoding


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
