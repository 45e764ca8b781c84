"""Where to set the grounding probe's threshold: cosine (MiniLM) between a sentence and the closest
stored passage of a session, for sentences the session supports and sentences it does not.

    python docs/measure/llm_grounding.py --home HOME

HOME is a PICA_HOME with the shared transcripts indexed and embedded (llm_summaries.py leaves one).
Claims are sentences of 6 to 40 words from the sessions' assistant messages (8 a session at most):
- own: against the session's passages, its own message included (said in so many words);
- held out: against the session's other messages only (said elsewhere in the session, or new);
- other: against another session's passages (not said: what an invented sentence looks like).
A sentence fails the probe when its best cosine is under the threshold.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", required=True)
    args = parser.parse_args()
    os.environ["PICA_HOME"] = args.home
    import numpy as np

    from pica.kernel import runner
    from pica.stages.llm.source import sentences, words
    from pica.stages.models import query_encoder
    from pica.stages.retrieve.vectors import store_for
    from pica.stages.store.lance_store import in_list

    rng = random.Random(0)
    encode = query_encoder("all-MiniLM-L6-v2")
    store = store_for(str(Path(args.home) / "lance"))
    sessions = [s for s in runner.run("transcripts/list", variables={"n": 1000}).output if s["messages"] >= 6]
    data = []
    for session in sessions:
        messages = runner.run("transcripts/session", variables={"session": session["session"]}).output
        ids = [m["id"] for m in messages]
        rows = []
        for start in range(0, len(ids), 500):
            where = f"{in_list('doc_id', ids[start : start + 500])} AND vector IS NOT NULL"
            rows += store.chunks.search().where(where).select(["doc_id", "vector"]).limit(None).to_list()
        if len(rows) < 4:
            continue
        claims = [
            (m["id"], s)
            for m in messages
            if m["metadata"].get("role") == "assistant" and m["metadata"].get("kind") in ("text", None)
            for s in sentences(m.get("text") or "")
            if 6 <= len(words(s)) <= 40
        ]
        if not claims:
            continue
        claims = rng.sample(claims, min(8, len(claims)))
        matrix = np.array([r["vector"] for r in rows], dtype=np.float32)
        owners = np.array([r["doc_id"] for r in rows])
        data.append((session["session"], claims, encode([c for _, c in claims]), matrix, owners))
    own, held, other = [], [], []
    for n, (_, claims, vectors, matrix, owners) in enumerate(data):
        scores = vectors @ matrix.T
        for i, (doc, _) in enumerate(claims):
            own.append(scores[i].max())
            rest = scores[i][owners != doc]
            if rest.size:
                held.append(rest.max())
        _, _, _, other_matrix, _ = data[(n + 1) % len(data)]
        other += list((vectors @ other_matrix.T).max(axis=1))
    print(f"{len(data)} sessions, {len(own)} sentences")
    for name, values in (("own", own), ("held out", held), ("other", other)):
        q = np.percentile(values, [5, 10, 25, 50, 75, 90])
        print(f"{name:9} n={len(values):4}  p5 {q[0]:.2f}  p10 {q[1]:.2f}  p25 {q[2]:.2f}  median {q[3]:.2f}"
              f"  p75 {q[4]:.2f}  p90 {q[5]:.2f}")  # fmt: skip
    print("threshold  own fail  held-out fail  other pass")
    for t in np.arange(0.30, 0.66, 0.05):
        print(f"{t:9.2f}  {np.mean(np.array(own) < t):8.1%}  {np.mean(np.array(held) < t):13.1%}"
              f"  {np.mean(np.array(other) >= t):10.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
