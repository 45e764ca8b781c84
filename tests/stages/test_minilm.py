"""The numpy MiniLM query encoder: same vectors as sentence-transformers, and no torch import."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from pica.stages.models import load_sentence_transformer, model_location, query_encoder

LONG = " ".join(f"token{i} of a long passage about retrieval" for i in range(120))  # >256 word pieces
TEXTS = [
    "",
    "a",
    "hnsw",
    "What is the boiling point of water at altitude?",
    "0-dimensional biomaterials lack inductive properties.",
    "what similarity laws must be obeyed when constructing aeroelastic models of heated high speed aircraft .",
    "how often do we try charging a card again?",
    "ALL CAPS QUERY ABOUT KUBERNETES",
    "café naïve résumé Ångström",
    "Привет мир, как дела?",
    "東京の天気はどうですか",
    "机器学习模型的训练方法",
    "한국어 검색 엔진",
    "مرحبا بالعالم",
    "I ❤️ pizza 🍕 and 🐍 python",
    "🔥🔥🔥",
    "def f(x):\n    return x ** 2  # square",
    "SELECT * FROM users WHERE id = 42;",
    "for (int i = 0; i < n; ++i) { sum += a[i]; }",
    "https://example.com/path?q=1&r=2#frag",
    "\t\n  leading and trailing whitespace \n",
    "[CLS] [SEP] [PAD] [MASK]",
    "zero\u200bwidth and \x00 control",
    "word " * 400,
    LONG,
    "The " + "very " * 300 + "long sentence.",
    "Wie funktioniert ein Verbrennungsmotor?",
    "¿Qué es la fotosíntesis?",
    "a" * 1000,
    "42",
]


def test_numpy_encoder_matches_sentence_transformers():
    numpy_vectors = query_encoder("all-MiniLM-L6-v2")(TEXTS)
    model = load_sentence_transformer("all-MiniLM-L6-v2", threads=1)
    torch_vectors = model.encode(TEXTS, convert_to_numpy=True, normalize_embeddings=True)
    assert numpy_vectors.dtype == np.float32
    assert numpy_vectors.shape == torch_vectors.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(numpy_vectors, axis=1), 1.0, atol=1e-5)
    cosines = (numpy_vectors * torch_vectors).sum(axis=1)
    assert cosines.min() >= 1 - 1e-4, TEXTS[int(cosines.argmin())]
    # A batch pads; one text alone does not: the vectors must not depend on it.
    alone = np.concatenate([query_encoder("all-MiniLM-L6-v2")([t]) for t in [*TEXTS[:5], LONG]])
    np.testing.assert_allclose(alone, numpy_vectors[[0, 1, 2, 3, 4, TEXTS.index(LONG)]], atol=1e-5)


def test_distinct_texts_get_distinct_vectors():
    vectors = query_encoder("all-MiniLM-L6-v2")(["solar panels", "tax law", "solar power"])
    assert vectors[0] @ vectors[2] > vectors[0] @ vectors[1] + 0.2


def test_encoding_a_query_does_not_import_torch():
    script = (
        "import sys\n"
        "from pica.stages.models import query_encoder\n"
        "vectors = query_encoder('all-MiniLM-L6-v2')(['does this import torch?'])\n"
        "assert vectors.shape == (1, 384), vectors.shape\n"
        "heavy = sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "", f"imported: {run.stdout.strip()}"


@pytest.mark.parametrize("name", ["all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"])
def test_both_packaged_names_share_one_loaded_model(name):
    from pica.stages.minilm import load

    model = load(model_location("all-MiniLM-L6-v2"))
    text = ["which encoder is this"]
    assert np.allclose(query_encoder(name)(text), model(text), atol=1e-6)  # BLAS threads differ
    assert load.cache_info().currsize == 1
