"""The knowledge graph of the MCP memory server (memory.jsonl) as a search provider.

The reference server writes one JSON object per line, `{"type":"entity","name",...}` or
`{"type":"relation","from","to","relationType"}`. Forks write look-alikes: `_type` for `type`,
no type at all (inferred from the keys), extra keys, observations as `{"text": ...}` objects. All
are read; a line that is not JSON, or not an entity or relation, is skipped and reported. Names
repeat in hand-edited files (their types and observations are merged) and relations may name
entities that do not exist (they are kept and shown). Every string read is redacted
(`stages/redact.py`) before it is searched or shown: the file is read at query time, not indexed.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field

from pica.kernel.records import Hit
from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.secrets import redact
from pica.stages.terms import STOPWORDS, WORD, contains, coverage, fold, query_terms

# Where a term is found counts this much: names say what an entity is, observations say more.
NAME_WEIGHT, TYPE_WEIGHT, OBSERVATION_WEIGHT = 3.0, 1.0, 1.0
MAX_PROBLEMS_SHOWN = 3  # bad lines named per search; the rest are counted


@dataclass
class Entity:
    name: str
    line: int
    types: list[str] = field(default_factory=list)
    observations: list[str] = field(default_factory=list)


@dataclass
class Relation:
    source: str
    target: str
    kind: str
    line: int


@dataclass
class Words:
    """An entity's folded words, found once per read of the graph, not on every query."""

    name: set[str]  # the name's words, their parts (cpu_implementation: cpu, implementation) and joins
    exact: list[set[str]]  # word sets the query's terms must be for the name to be the query
    types: set[str]
    observations: set[str]
    passage: str  # what the hit shows


@dataclass
class Graph:
    entities: dict[str, Entity] = field(default_factory=dict)
    relations: list[Relation] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    words: dict[str, Words] = field(default_factory=dict)  # entity name -> its words, when first asked
    _by_name: dict[str, list[Relation]] | None = field(default=None, repr=False)

    def relations_of(self, name: str) -> list[Relation]:
        if self._by_name is None:
            by_name: dict[str, list[Relation]] = {}
            for r in self.relations:
                for end in dict.fromkeys((r.source, r.target)):
                    by_name.setdefault(end, []).append(r)
            self._by_name = by_name
        return self._by_name.get(name, [])


def read_graph(path: Path) -> Graph:
    graph = Graph()
    seen_relations: set[tuple[str, str, str]] = set()
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as error:
            graph.problems.append(f"{path.name} line {number}: not JSON ({error.args[0][:60]}); skipped")
            continue
        kind = _kind(item)
        if kind == "entity":
            _add_entity(graph, item, number)
        elif kind == "relation":
            source, target, kind_name = (str(item.get(k, "")) for k in ("from", "to", "relationType"))
            key = (redact(source), redact(target), redact(kind_name))
            if key not in seen_relations:
                seen_relations.add(key)
                graph.relations.append(Relation(*key, number))
        elif kind is None:
            graph.problems.append(f"{path.name} line {number}: neither an entity nor a relation; skipped")
    return graph


def _kind(item: Any) -> str | None:
    if not isinstance(item, dict):
        return None
    kind = item.get("type", item.get("_type"))
    if kind in ("entity", "relation"):
        return kind if _usable(item, kind) else None
    if kind is not None:
        return "other"  # the reference server ignores lines of other types; so do we
    if _usable(item, "relation"):
        return "relation"
    return "entity" if _usable(item, "entity") else None


def _usable(item: dict[str, Any], kind: str) -> bool:
    if kind == "entity":
        return isinstance(item.get("name"), str) and bool(item["name"].strip())
    return isinstance(item.get("from"), str) and isinstance(item.get("to"), str)


def _add_entity(graph: Graph, item: dict[str, Any], line: int) -> None:
    name = redact(item["name"])
    entity = graph.entities.setdefault(name, Entity(name, line))
    kind = item.get("entityType")
    kind = redact(kind) if isinstance(kind, str) else kind
    if isinstance(kind, str) and kind and kind not in entity.types:
        entity.types.append(kind)
    observations = item.get("observations")
    for observation in observations if isinstance(observations, list) else []:
        if isinstance(observation, dict):  # {"text": ..., "timestamp": ...} in some forks
            observation = observation.get("text") or observation.get("content") or ""
        observation = redact(observation) if isinstance(observation, str) else observation
        if isinstance(observation, str) and observation and observation not in entity.observations:
            entity.observations.append(observation)


class KgParams(Params):
    path: str = Field("", description="The knowledge graph's memory.jsonl; empty: not configured.")
    query: str = Field(description="Words to find in entity names, types and observations.")
    k: int = Field(20, gt=0, le=1000, description="How many entities to return.")
    trust: str = Field("fact", description="Trust tier of what it finds.")


@stage
class RetrieveKg(Stage):
    """Entities of an MCP memory-server knowledge graph that hold the query's words (names count
    most), each with its observations and every relation it takes part in."""

    id = "retrieve.kg.v1"
    Params = KgParams
    outputs = {"hits": list[Hit]}
    run_params = frozenset({"query", "k", "trust"})
    timeout_s = 5.0
    on_error = "skip"

    @classmethod
    def example(cls, workdir: Path) -> Example:
        path = workdir / "memory.jsonl"
        lines = [
            {"type": "entity", "name": "Pica", "entityType": "project", "observations": ["search engine"]},
            {"type": "relation", "from": "Pica", "to": "Tantivy", "relationType": "uses"},
        ]
        path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
        return Example(params={"path": str(path), "query": "search engine"})

    def warm_up(self, ctx: Context) -> None:
        self._lock = threading.Lock()
        self._loaded: tuple[tuple[int, int], Graph] | None = None

    def run(self, ctx: Context) -> dict[str, Any]:
        if not self.params.path:
            ctx.note("not configured: set PICA_KG_PATH (or MEMORY_FILE_PATH) to a memory.jsonl")
            return {"hits": []}
        path = Path(self.params.path).expanduser()
        graph = self._graph(path)
        for problem in graph.problems[:MAX_PROBLEMS_SHOWN]:
            ctx.warn(problem)
        if len(graph.problems) > MAX_PROBLEMS_SHOWN:
            ctx.warn(f"{path.name}: {len(graph.problems) - MAX_PROBLEMS_SHOWN} more bad lines skipped")
        terms = query_terms(self.params.query)
        scored = [
            (score, entity) for entity in graph.entities.values() if (score := _score(graph, entity, terms))
        ]
        scored.sort(key=lambda pair: (-pair[0], pair[1].line))  # by the score shown, ties in file order
        return {"hits": [self._hit(path, graph, entity, score) for score, entity in scored[: self.params.k]]}

    def _graph(self, path: Path) -> Graph:
        """The graph as the file is now: read again whenever its size or mtime changes."""
        stat = path.stat()  # a missing file is an error the caller sees as a warning
        version = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            if self._loaded is None or self._loaded[0] != version:
                self._loaded = (version, read_graph(path))
            return self._loaded[1]

    def _hit(self, path: Path, graph: Graph, entity: Entity, score: float) -> Hit:
        return Hit(
            id=f"kg/{entity.name}",
            chunk_id=f"kg/{entity.name}",
            collection="kg",
            path=str(path),
            title=entity.name,
            line_start=entity.line,
            line_end=entity.line,
            score=score,
            passage=_words(graph, entity).passage,
            source="kg",
            metadata={"entityType": entity.types[0] if len(entity.types) == 1 else entity.types},
            trust=self.params.trust,
            via="kg",
        )


def _score(graph: Graph, entity: Entity, terms: list[str]) -> float:
    """How well the entity answers the query, from the query and the entity alone; 0: not at all.

    An entity is found when its name, a type or an observation holds a term (a query of stop words
    only: its name). Its score is (held + quality) / (terms + 1): `held` is how many terms the hit
    holds in all it shows (its relations too), measured as fuse.trust measures a hit's evidence, so
    that a list is in the order fusion sees (fusion lifts a hit to the evidence of any hit its list
    ranks below it: were the list in another order, a hit's fused score would depend on how many
    hits were asked for). `quality` (0..1) is where the terms are (names weigh most) and whether
    the name is the query's words; it orders hits that hold as many terms, never more.
    """
    if not terms:
        return 0.0
    words = _words(graph, entity)
    fields = [(NAME_WEIGHT, words.name)]
    if not all(term in STOPWORDS for term in terms):  # "the", "what is it": in every observation
        fields += [(TYPE_WEIGHT, words.types), (OBSERVATION_WEIGHT, words.observations)]
    found = [max((weight for weight, held in fields if contains(held, term)), default=0.0) for term in terms]
    if not any(found):
        return 0.0
    held = coverage(terms, f"{entity.name} {words.passage}") * len(terms)  # fuse.trust: title + passage
    exact = set(terms) in words.exact
    quality = (sum(found) / (NAME_WEIGHT * len(terms)) + exact) / 2
    return (held + quality) / (len(terms) + 1)


def _words(graph: Graph, entity: Entity) -> Words:
    words = graph.words.get(entity.name)
    if words is None:  # once per graph read, not per query
        name, shown = _name_words(entity.name)
        types = [_name_words(kind) for kind in entity.types]
        whole, split = set(WORD.findall(fold(entity.name))), {fold(part) for part in _parts(entity.name)}
        exact = [whole, split, whole - STOPWORDS, split - STOPWORDS]
        words = graph.words[entity.name] = Words(
            name=name,
            exact=[found for n, found in enumerate(exact) if found and found not in exact[:n]],
            types=set().union(*(found for found, _ in types)),
            observations=set(WORD.findall(fold(" ".join(entity.observations)))),
            passage=_passage(
                graph, entity, list(dict.fromkeys([*shown, *(p for _, ps in types for p in ps)]))
            ),
        )
    return words


def _name_words(name: str) -> tuple[set[str], list[str]]:
    """A name's folded words: whole (cpu_implementation), in parts (cpu, implementation) and all
    parts joined (cpuimplementation); and the parts that are no whole word, to show."""
    whole = set(WORD.findall(fold(name)))
    parts = _parts(name)
    folded = [fold(part) for part in parts]
    shown = [part for part, word in zip(parts, folded, strict=True) if word not in whole]
    return whole | set(folded) | {"".join(folded)}, shown


def _parts(text: str) -> list[str]:
    """The words of a text, snake_case and camelCase ones in their parts."""
    return [part for word in WORD.findall(text) for piece in word.split("_") for part in _camel(piece)]


def _camel(word: str) -> list[str]:
    """camelCase, PascalCase and CPUMetrics in their parts (CPU, Metrics); digits stay with letters."""
    parts, start = [], 0
    for n in range(1, len(word)):
        before, char, after = word[n - 1], word[n], word[n + 1 : n + 2]
        if char.isupper() and (before.islower() or (before.isupper() and after.islower())):
            parts.append(word[start:n])
            start = n
    parts.append(word[start:])
    return [part for part in parts if part]


def _passage(graph: Graph, entity: Entity, parts: list[str]) -> str:
    """What a hit shows: name and types (with the words of compound names, which is what they are
    found by), observations, and every relation the entity takes part in."""
    head = f"{entity.name} ({', '.join(entity.types) or 'entity'})"
    lines = [f"{head} [{' '.join(parts)}]" if parts else head]
    lines += [f"- {observation}" for observation in entity.observations]
    for relation in graph.relations_of(entity.name):
        dangling = "" if relation.target in graph.entities and relation.source in graph.entities else " ?"
        lines.append(f"{relation.source} -[{relation.kind}]-> {relation.target}{dangling}")
    return "\n".join(lines)
