"""A numpy-only forward pass of the packaged all-MiniLM-L6-v2, for encoding queries.

Importing torch and sentence-transformers costs seconds on a cold `pica search`; this module
needs only numpy, tokenizers and safetensors; its vectors match sentence-transformers to cosine > 1 - 1e-6.
Bulk embedding still goes through sentence-transformers (stages/embed.py).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
TOKENS = 2048  # word pieces per forward pass


def _erf(x: F32) -> F32:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): BERT's exact GELU without scipy or a Python loop.
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return np.sign(x) * (1.0 - poly * np.exp(-x * x))


def _gelu(x: F32) -> F32:
    return 0.5 * x * (1.0 + _erf(x * np.float32(1 / np.sqrt(2))))


def _layer_norm(x: F32, weight: F32, bias: F32, eps: float) -> F32:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class MiniLM:
    """texts -> unit-length float32 vectors: BERT, mean pooling over real tokens, L2 normalisation."""

    def __init__(self, folder: str | Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        folder = Path(folder)
        config = json.loads((folder / "config.json").read_text())
        max_len = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self.heads: int = config["num_attention_heads"]
        self.layers: int = config["num_hidden_layers"]
        self.eps: float = config["layer_norm_eps"]
        self.w = load_file(str(folder / "model.safetensors"))
        for i in range(self.layers):  # one matmul for query, key and value
            p = f"encoder.layer.{i}.attention.self."
            self.w[p + "qkv.weight"] = np.concatenate(
                [self.w[p + n + ".weight"] for n in ("query", "key", "value")]
            )
            self.w[p + "qkv.bias"] = np.concatenate(
                [self.w[p + n + ".bias"] for n in ("query", "key", "value")]
            )
        self.pad: int = config["pad_token_id"]
        # tokenizer.json pads and truncates to 128; sentence-transformers cuts at max_seq_length (256).
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_len)
        self.tokenizer.no_padding()

    def __call__(self, texts: list[str]) -> F32:
        encodings = self.tokenizer.encode_batch([text.strip() for text in texts])
        # Longest first, in batches of about TOKENS word pieces: short texts are not padded to a long
        # neighbour's length, and the arrays stay small enough to be reused rather than page-faulted.
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        out = np.zeros((len(texts), self.w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
        start = 0
        while start < len(order):
            rows = order[start : start + max(1, TOKENS // len(encodings[order[start]].ids))]
            out[rows] = self._encode([encodings[i].ids for i in rows])
            start += len(rows)
        return out

    def _encode(self, pieces: list[list[int]]) -> F32:
        w, eps = self.w, self.eps
        batch, length = len(pieces), max(map(len, pieces))
        ids = np.full((batch, length), self.pad, np.int64)
        mask = np.zeros((batch, length), np.float32)
        for row, piece in enumerate(pieces):
            ids[row, : len(piece)], mask[row, : len(piece)] = piece, 1.0
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]  # one sentence: every token is type 0
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        hidden = x.shape[-1]
        head = hidden // self.heads
        # Padding must get no attention: a large negative score before the softmax.
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1 / np.sqrt(head))
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv = x @ w[p + "attention.self.qkv.weight"].T + w[p + "attention.self.qkv.bias"]
            # Contiguous heads: numpy's matmul skips BLAS for some strided stacks.
            q, k, v = np.ascontiguousarray(
                qkv.reshape(batch, length, 3, self.heads, head).transpose(2, 0, 3, 1, 4)
            )
            scores = q @ k.transpose(0, 1, 3, 2) * scale + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            attn = context @ w[p + "attention.output.dense.weight"].T + w[p + "attention.output.dense.bias"]
            x = _layer_norm(
                attn + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                eps,
            )
            mid = _gelu(x @ w[p + "intermediate.dense.weight"].T + w[p + "intermediate.dense.bias"])
            out = mid @ w[p + "output.dense.weight"].T + w[p + "output.dense.bias"]
            x = _layer_norm(out + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


@cache
def load(folder: str) -> MiniLM:
    """The model in `folder`, loaded once per process."""
    return MiniLM(folder)
