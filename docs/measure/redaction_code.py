"""What redaction changes in real code: the Python standard library and this environment's
site-packages (installed packages: code, tests, docs, data), none of it written to hold secrets
though some of it does (test fixtures, documentation examples).

    python docs/measure/redaction_code.py [--part dev|check] [--show N]
    python docs/measure/redaction_code.py --dir /usr/include --dir /usr/lib/node_modules [--show N]

Packages are split by the SHA-1 of their top-level name (the standard library goes to dev), so
rules are corrected looking at the development part's redactions and the check part measures how
the corrections generalise. Prints, per part, the files and characters read and the redactions
per class; `--show N` prints N random redactions of each class with the text around them
(`«…»` marks what is redacted). The figures depend on what is installed: compare before and after
a change on the same environment. `--dir` reads other folders instead, as one part named "other"
(C headers, JavaScript, Perl: languages the rules were not corrected on).
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
import sysconfig
from collections import Counter, defaultdict
from pathlib import Path

from pica.stages.secrets import find_secrets

SUFFIXES = {
    ".py",
    ".md",
    ".txt",
    ".rst",
    ".yaml",
    ".yml",
    ".json",
    ".toml",
    ".cfg",
    ".ini",
    ".js",
    ".ts",
    ".sh",
}
# --dir reads other languages too
OTHER_SUFFIXES = SUFFIXES | {".mjs", ".cjs", ".h", ".hpp", ".c", ".cc", ".pl", ".pm", ".rb", ".vim", ".cmake"}
LARGEST = 2_000_000  # characters; bigger files are generated data


def units() -> list[tuple[str, Path]]:
    """(part, folder or file) for the standard library and each top-level site-packages entry."""
    stdlib, site = Path(sysconfig.get_paths()["stdlib"]), Path(sysconfig.get_paths()["purelib"])
    out = [("dev", stdlib)]
    for entry in sorted(site.iterdir()):
        name = entry.name.split("-")[0].split(".")[0].lower()
        out.append(("dev" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 2 == 0 else "check", entry))
    return out


def files(root: Path, skip: Path, suffixes: set[str]) -> list[Path]:
    if root.is_file():
        return [root] if root.suffix in suffixes else []
    found = []
    for folder, dirs, names in os.walk(root):
        if Path(folder) == skip:
            dirs.clear()  # site-packages inside the standard library's folder is read by package
            continue
        found += [Path(folder) / n for n in names if Path(n).suffix in suffixes]
    return found


def main(argv: list[str]) -> None:
    chosen = [argv[argv.index("--part") + 1]] if "--part" in argv else ["dev", "check"]
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 0
    site = Path(sysconfig.get_paths()["purelib"])
    folders = [Path(argv[i + 1]) for i, arg in enumerate(argv) if arg == "--dir"]
    parts = [("other", folder) for folder in folders] if folders else units()
    for part in ["other"] if folders else chosen:
        counts: Counter[str] = Counter()
        seen: dict[str, list[str]] = defaultdict(list)
        read = chars = 0
        for unit_part, root in parts:
            if unit_part != part:
                continue
            for path in files(root, site, OTHER_SUFFIXES if folders else SUFFIXES):
                try:
                    text = path.read_text(encoding="utf-8")
                except (UnicodeDecodeError, OSError):
                    continue
                if len(text) > LARGEST:
                    continue
                read, chars = read + 1, chars + len(text)
                for start, end, kind in find_secrets(text):
                    counts[kind] += 1
                    line_start = text.rfind("\n", 0, start) + 1
                    line_end = text.find("\n", end) % (len(text) + 1)
                    around = text[max(line_start, start - 60) : start] + "«" + text[start:end] + "»"
                    seen[kind].append(f"{path.name}: {around + text[end : min(line_end, end + 30)]}")
        total = sum(counts.values())
        print(
            f"{part}: {read} files, {chars / 1e6:.1f} M characters, {total} redactions "
            f"({total / chars * 1e6:.2f} per M characters)"
        )
        for kind, n in counts.most_common():
            print(f"  {kind}: {n}")
            for sample in random.Random(1).sample(seen[kind], min(show, n)):
                print("     ", sample.replace("\n", "⏎")[:220])


if __name__ == "__main__":
    main(sys.argv[1:])
