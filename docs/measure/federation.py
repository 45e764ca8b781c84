"""Do trust weights bury strong low-tier hits? A mixed known-item benchmark built from the corpus.

    python docs/measure/federation.py [--per-tier 60] [--evidence 0,0.5,1]

Indexes ../shared/corpus (documents as collection `docs`; Claude Code, Codex and Gemini
transcripts; the seven knowledge graphs merged into one memory.jsonl) into a temporary PICA_HOME.
Then, per trust tier, it picks known items at random (seeded): transcript messages (lead), document
passages (reference), graph entities (fact), and for each writes a query the way known-item
studies do: three of the item's rarest words plus one common word of it (so every provider finds
something). For each query it records the item's rank in its own provider's list alone and in the
fused federated list, for each value of the fusion's `evidence`.

A strong hit is one its own provider ranks first; it is buried when the fused list, cut to 10,
leaves it out. Reported per tier: buried (of strong), MRR@10 and Success@10 of the item.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
WORD = re.compile(r"[^\W\d_]{4,}")
TIER_OF = {"transcripts": "lead", "files": "reference", "kg": "fact"}


def build_home(home: Path) -> Path:
    kg = home / "memory.jsonl"
    home.mkdir(parents=True, exist_ok=True)
    graphs = [
        p.read_text(encoding="utf-8").strip("\n") for p in sorted((CORPUS / "kg").glob("*/*/memory.jsonl"))
    ]
    kg.write_text("\n".join(graphs) + "\n", encoding="utf-8")
    os.environ.update({"PICA_HOME": str(home), "PICA_KG_PATH": str(kg), "HF_HUB_OFFLINE": "1"})
    for agent in ("claude-code", "codex", "gemini"):  # for indexing, and for the searches to see them
        os.environ[f"PICA_{agent.split('-')[0].upper()}_DIR"] = str(CORPUS / "transcripts" / agent)
    env = dict(os.environ)
    pica = [sys.executable, "-m", "pica"]
    subprocess.run(
        [*pica, "add", str(CORPUS / "documents"), "--name", "docs"], env=env, check=True, capture_output=True
    )
    subprocess.run([*pica, "index"], env=env, check=True, capture_output=True)
    return kg


def items(home: Path, kg: Path, per_tier: int, seed: int) -> tuple[list[tuple[str, str, str]], Counter]:
    """(tier, id, text) of the known items, and the document frequency of every word of them all."""
    from pica.stages.retrieve.kg import read_graph
    from pica.stages.store.lance_store import LanceStore

    store = LanceStore(home / "lance")
    documents = store.documents_where(None, ["id", "source", "text", "metadata"])
    graph = read_graph(kg)
    pool: dict[str, list[tuple[str, str]]] = {"lead": [], "reference": [], "fact": []}
    for doc in documents:
        text = doc["text"]
        kind = json.loads(doc["metadata"] or "{}").get("kind")
        if doc["source"] == "transcripts" and kind == "text" and len(text) > 200:
            pool["lead"].append((doc["id"], text[:3000]))
        elif doc["source"] == "files" and len(text) > 400:
            pool["reference"].append((doc["id"], text[:3000]))
    for entity in graph.entities.values():
        text = " ".join([entity.name, *entity.types, *entity.observations])
        if len(text) > 120:
            pool["fact"].append((f"kg/{entity.name}", text))
    df = Counter(w for texts in pool.values() for _, text in texts for w in set(WORD.findall(text.lower())))
    rng = random.Random(seed)
    chosen = []
    for tier, candidates in pool.items():
        rng.shuffle(candidates)
        chosen += [(tier, doc_id, text) for doc_id, text in candidates[:per_tier]]
    return chosen, df


def queries(chosen: list[tuple[str, str, str]], df: Counter, seed: int) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    out = []
    for tier, doc_id, text in chosen:
        words = sorted(set(WORD.findall(text.lower())), key=lambda w: (df[w], w))
        if len(words) < 6:
            continue
        rare, common = words[:12], words[len(words) // 2 :]
        query = [*rng.sample(rare, 3), rng.choice(common)]
        out.append((tier, doc_id, " ".join(query)))
    return out


def rank_of(hits, doc_id: str) -> int | None:
    for rank, hit in enumerate(hits, 1):
        if hit.id == doc_id or any(c["id"] == doc_id for c in hit.corroboration):
            return rank
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-tier", type=int, default=60)
    parser.add_argument("--evidence", default="0,1,2,3")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    evidences = [float(e) for e in args.evidence.split(",")]

    home = Path(tempfile.mkdtemp(prefix="pica-federation-"))
    kg = build_home(home)
    from pica.kernel import runner
    from pica.kernel.executor import StageCache, execute
    from pica.kernel.settings import Settings
    from pica.kernel.stage import Context

    settings = Settings()
    cache = StageCache()
    base = runner.plan(
        "search/federated", ["k=10"], settings, {"query": "x", "sources": ["transcripts", "files", "kg"]}
    )
    own = {s: runner.plan(f"search/{s}", ["k=10"], settings, {"query": "x"}) for s in TIER_OF}
    provider = {tier: s for s, tier in TIER_OF.items()}
    rows = queries(*items(home, kg, args.per_tier, args.seed), args.seed)

    def run(plan, **params):
        return execute(plan.with_params(**params), Context(settings=settings), cache).output

    results: dict[tuple[str, float], list[tuple[int | None, int | None]]] = {}
    for tier, doc_id, query in rows:
        alone = rank_of(run(own[provider[tier]], query=query, evidence=0.0), doc_id)
        for evidence in evidences:
            fused = rank_of(run(base, query=query, evidence=evidence), doc_id)
            results.setdefault((tier, evidence), []).append((alone, fused))

    print(f"{len(rows)} queries ({args.per_tier} per tier asked), seed {args.seed}\n")
    print(f"{'tier':10} {'evidence':>8} {'strong':>7} {'buried':>7} {'MRR@10':>7} {'S@10':>6}")
    report = []
    for (tier, evidence), pairs in sorted(
        results.items(), key=lambda kv: (["lead", "reference", "fact"].index(kv[0][0]), kv[0][1])
    ):
        strong = [fused for alone, fused in pairs if alone == 1]
        buried = sum(1 for fused in strong if fused is None)
        mrr = sum(1 / f for _, f in pairs if f) / len(pairs)
        success = sum(1 for _, f in pairs if f) / len(pairs)
        print(f"{tier:10} {evidence:8.2f} {len(strong):7d} {buried:7d} {mrr:7.3f} {success:6.3f}")
        numbers = {"queries": len(pairs), "strong": len(strong), "buried": buried}
        report.append({"tier": tier, "evidence": evidence, **numbers, "mrr@10": mrr, "success@10": success})
    (home / "report.json").write_text(json.dumps(report, indent=2))
    print(f"\nreport: {home / 'report.json'}")


if __name__ == "__main__":
    main()
