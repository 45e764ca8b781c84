"""The user's registered collections: a small JSON file in PICA_HOME, written atomically."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pica.kernel.errors import PicaError
from pica.kernel.files import write_atomically

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass
class Collection:
    name: str
    path: str
    options: dict[str, Any] = field(default_factory=dict)  # recipe variables: include, exclude...


class Collections:
    def __init__(self, home: Path):
        self.file = home.expanduser() / "collections.json"

    def all(self) -> list[Collection]:
        if not self.file.exists():
            return []
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except ValueError as error:
            raise PicaError(f"{self.file} is not valid JSON ({error}); fix or delete it") from None
        return [Collection(**entry) for entry in data.get("collections", [])]

    def add(self, path: Path, name: str, options: dict[str, Any]) -> Collection:
        folder = path.expanduser().resolve()
        if not folder.is_dir():
            raise PicaError(f"{path} is not a folder")
        if not NAME.match(name):
            raise PicaError(f"collection name '{name}' must be letters, digits, '.', '_' or '-'")
        existing = {c.name: c for c in self.all()}
        if name in existing and existing[name].path != str(folder):
            raise PicaError(
                f"collection '{name}' already indexes {existing[name].path}; "
                f"choose another --name or `pica rm {name}` first"
            )
        existing[name] = Collection(name, str(folder), options)
        self._save(list(existing.values()))
        return existing[name]

    def remove(self, name: str) -> None:
        self._save([c for c in self.all() if c.name != name])

    def _save(self, collections: list[Collection]) -> None:
        write_atomically(self.file, json.dumps({"collections": [asdict(c) for c in collections]}, indent=2))
