"""The six probes a summary draft must pass. Each is a stage of its own with its own verdict and
evidence: `{"probe", "passed": true | false | null (not run), "evidence": [...]}`. Evidence names
what was wrong (the unsupported name, the invented path, which sentence lacks support) so a user can
see why a summary was withheld."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from pica.kernel.registry import stage
from pica.kernel.stage import Context, Example, Params, Stage
from pica.stages.llm.client import Model, ModelUnavailable
from pica.stages.llm.source import sentences, source_text, words
from pica.stages.llm.summarize import ModelParams, example_messages, recorded

GOOD_DRAFT = "The user asked to fix the retry loop in fetch.py. It now stops after 3 tries."


def draft_of(text: str) -> dict:
    return {
        "session": "s1",
        "messages": 2,
        "source": "",
        "text": text,
        "error": "",
        "model": "m",
        "calls": [],
    }


class Probe(Stage):
    """Base of the probes: inputs are the draft and the session's messages."""

    name: ClassVar[str] = ""
    inputs = {"draft": dict, "messages": list[dict]}
    outputs = {"verdicts": list[dict]}

    @classmethod
    def example(cls, workdir: Path) -> Example:
        return Example(params={}, inputs={"draft": draft_of(GOOD_DRAFT), "messages": example_messages()})

    def run(self, ctx: Context, draft: dict, messages: list[dict]) -> dict[str, Any]:
        verdict: dict[str, Any] = {"probe": self.name, "passed": None, "evidence": []}
        if draft.get("text") and not draft.get("error"):
            passed, evidence, extra = self.check(ctx, draft, messages)
            verdict.update(passed=passed, evidence=evidence, **extra)
        return {"verdicts": [verdict]}

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        raise NotImplementedError


# 1. length


class LengthParams(Params):
    min_chars: int = Field(40, ge=1, description="A summary shorter than this says nothing.")
    max_share: float = Field(
        0.5, gt=0, le=1, description="Longest summary, as a share of the source's length."
    )
    floor_chars: int = Field(600, ge=0, description="A short session may still get a summary this long.")
    max_chars: int = Field(3000, gt=0, description="Longest summary whatever the source.")
    max_repeats: int = Field(
        3, ge=2, description="A sentence said this many times is a model stuck in a loop."
    )


@stage
class ProbeLength(Probe):
    """Length: not empty, not longer than a set share of what it summarizes, no sentence repeated."""

    id = "probe.length.v1"
    name = "length"
    Params = LengthParams

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        p = self.params
        size, source = len(draft["text"]), len(draft.get("source") or source_text(messages))
        longest = min(p.max_chars, max(p.floor_chars, int(p.max_share * source)))
        if size < p.min_chars:
            return False, [f"{size} characters: shorter than {p.min_chars}"], {}
        said = [" ".join(words(x.lower())) for x in sentences(draft["text"])]
        repeated = max((said.count(x) for x in set(said) if x), default=0)
        if repeated >= p.max_repeats:
            return False, [f"repeats itself: one sentence {repeated} times"], {}
        if size > longest:
            return (
                False,
                [f"{size} characters for {source} characters of messages: longer than {longest}"],
                {},
            )
        return True, [], {}


# 2. proper nouns

# Words a summary may capitalize without naming anything the session must contain.
_COMMON = """i the a an this that these those it its they he she we you user users assistant agent session
    summary model ai ok yes no first then next finally also after before later in on at for to of and
    but or with by from as when while there here however overall additionally meanwhile lastly
    currently initially subsequently afterwards both all some most several many each one two three
    other another during since once if so because although what which who where how"""
COMMON_CAPITALIZED = set(_COMMON.split())
CAPITALIZED = re.compile(r"\b[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)*")


def _found(term: str, haystack: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term.lower())}(?!\w)", haystack) is not None


def _stem_found(word: str, haystack: str) -> bool:
    """A sentence's first word may be any word capitalized: it counts as said when a word of the
    session begins the same way (Implemented ~ implement), unless it is short (a name like Bob)."""
    stem = word.lower()[:5] if len(word) > 5 else word.lower()
    return re.search(rf"(?<!\w){re.escape(stem)}", haystack) is not None


@stage
class ProbeProperNouns(Probe):
    """Proper nouns: every name the summary uses (people, products, projects) occurs in the session."""

    id = "probe.proper_nouns.v1"
    name = "proper_nouns"

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        source = source_text(messages).lower()
        missing: list[str] = []
        for sentence in sentences(draft["text"]):
            for match in CAPITALIZED.finditer(sentence):
                for n, word in enumerate(match.group(0).split()):
                    name = word.strip("'\u2019-")
                    if not name or name.lower() in COMMON_CAPITALIZED or name in missing:
                        continue
                    opening = match.start() == 0 and n == 0 and not _odd_case(name)
                    said = _stem_found(name, source) if opening else _found(name, source)
                    if not said:
                        missing.append(name)
        return not missing, [f"'{name}' is not in the session" for name in missing], {}


def _odd_case(word: str) -> bool:
    """CamelCase or ALL CAPS: a name even at the start of a sentence."""
    return any(c.isupper() for c in word[1:])


# 3. identifiers

IDENTIFIERS: dict[str, re.Pattern[str]] = {
    "URL": re.compile(r"\b(?:https?|ftp|file)://[^\s<>()\"'`]+"),
    "path": re.compile(
        r"(?<![\w/])(?:~|\.{1,2})?/?(?:[\w.@-]+/)+[\w.@-]+|\b[\w-]+\.(?:py|js|ts|tsx|jsx|md|json|jsonl|ya?ml|toml|txt|rs|go|java|rb|sh|c|h|cpp|hpp|css|html|sql|lock|cfg|ini|env)\b"
    ),
    "function": re.compile(
        r"\b[A-Za-z_][\w.]*\(\)|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b"
    ),
    "version": re.compile(r"\bv?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?\b|\bv\d+(?:\.\d+)?\b"),
    "hash": re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b"),
    "ticket": re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b|(?<![\w&])#\d+\b"),
    "quantity": re.compile(
        r"\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|secs|seconds?|minutes?|mins?|hours?|h|days?|[KMGT]i?B|[kKMG]b|bytes?|%"
        r"|px|tokens?|lines?|files?|tests?|commits?|rows?|chunks?|documents?|messages?|x)\b"
    ),
}
_SPACE_BEFORE_UNIT = re.compile(r"(\d)\s+(?=[A-Za-z%])")


def identifiers(text: str) -> list[tuple[str, str]]:
    """(kind, token) for every identifier-like token, each once, trailing punctuation stripped."""
    found: list[tuple[str, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in IDENTIFIERS.items():
        for match in pattern.finditer(text):
            start, end = match.span()
            token = match.group(0)
            token = token if token.endswith("()") else token.rstrip(".,;:!?)]}'\"`")
            if not token or any(s <= start < e for s, e in taken):
                continue
            taken.append((start, end))
            if (kind, token) not in found:
                found.append((kind, token))
    return found


@stage
class ProbeIdentifiers(Probe):
    """Identifiers: every path, function name, version, hash, URL, ticket id and number with a unit
    in the summary occurs in the session."""

    id = "probe.identifiers.v1"
    name = "identifiers"

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        source = source_text(messages)
        squeezed = _SPACE_BEFORE_UNIT.sub(r"\1", source).lower()
        missing = []
        for kind, token in identifiers(draft["text"]):
            wanted = token.lower() if kind != "quantity" else _SPACE_BEFORE_UNIT.sub(r"\1", token).lower()
            wanted = wanted.removesuffix("()") if kind == "function" else wanted  # f() ~ f(x)
            haystack = squeezed if kind == "quantity" else source.lower()
            if wanted not in haystack:
                missing.append(f"{kind} '{token}' is not in the session")
        return not missing, missing, {}


# 4. refusal drift

REFUSAL = re.compile(
    r"\b(?:i(?:'m| am) sorry|i apologi[sz]e|sorry, (?:but )?i|i (?:cannot|can't|can not|am unable to|"
    r"won't be able to|do not have access|don't have access)|as an ai\b|as a language model|"
    r"i'm (?:just )?an ai|unable to (?:summarize|provide|help)|i (?:cannot|can't) (?:help|assist))",
    re.IGNORECASE,
)
META = re.compile(
    r"\b(?:i hope (?:this|that) helps|let me know if|feel free to|is there anything else|"
    r"(?:in|this) (?:summary|response),? i (?:have|will)|as requested|happy to help|"
    r"(?:the|this) (?:conversation|transcript|text) (?:you provided|above|below))",
    re.IGNORECASE,
)
# The prompt's own furniture in the answer: the model copied its input instead of summarizing it.
ECHO = re.compile(
    r"^\s*\[(?:user|assistant|tool|system|message)\b[^\]\n]{0,60}\]|in 3 to 6 sentences|"
    r"the last messages of the session|what was this session working on",
    re.IGNORECASE | re.MULTILINE,
)
ENGLISH = {
    "the",
    "a",
    "an",
    "and",
    "or",
    "to",
    "of",
    "in",
    "on",
    "for",
    "with",
    "is",
    "was",
    "it",
    "that",
    "this",
    "by",
    "from",
    "at",
    "as",
    "be",
    "are",
    "were",
    "has",
    "had",
    "have",
    "not",
}


def script_of(char: str) -> str:
    name = unicodedata.name(char, "")
    if "CJK" in name or "HIRAGANA" in name or "KATAKANA" in name or "HANGUL" in name:
        return "CJK"
    return name.split(" ")[0] if name else ""


def scripts(text: str) -> dict[str, float]:
    counts: dict[str, int] = {}
    for char in text:
        if char.isalpha():
            script = script_of(char)
            counts[script] = counts.get(script, 0) + 1
    total = sum(counts.values()) or 1
    return {s: n / total for s, n in counts.items()}


def english_share(text: str) -> float:
    found = [w.lower() for w in words(text)]
    return sum(w in ENGLISH for w in found) / max(len(found), 1)


class RefusalParams(Params):
    min_script_share: float = Field(
        0.15,
        ge=0,
        le=1,
        description="The summary's script must be at least this share of the session's letters.",
    )
    min_overlap: float = Field(
        0.3, ge=0, le=1, description="Share of the summary's content words the session must hold."
    )


@stage
class ProbeRefusal(Probe):
    """Refusal drift: not a refusal, an apology, talk about itself or a copy of the prompt, not in
    another language or script than the session, not about something else."""

    id = "probe.refusal.v1"
    name = "refusal"
    Params = RefusalParams

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        text, source = draft["text"], source_text(messages)
        evidence = []
        kinds = (
            (REFUSAL, "a refusal or apology"),
            (META, "talk about the answer itself"),
            (ECHO, "repeats the prompt"),
        )
        for pattern, what in kinds:
            match = pattern.search(text)
            if match:
                evidence.append(f"{what}: '{match.group(0)}'")
        mine, theirs = scripts(text), scripts(source)
        main = max(mine, key=mine.get) if mine else ""
        if main and theirs.get(main, 0.0) < self.params.min_script_share:
            evidence.append(f"written in {main} letters; the session is {_main_scripts(theirs)}")
        elif main == "LATIN" and english_share(source) >= 0.08 and english_share(text) < 0.04:
            evidence.append("not in English, the session's language")
        content = [w.lower() for w in words(text) if len(w) > 3 and w.lower() not in ENGLISH]
        if content:
            low = source.lower()
            overlap = sum(_found(w, low) for w in content) / len(content)
            if overlap < self.params.min_overlap:
                evidence.append(f"about something else: {overlap:.0%} of its words occur in the session")
        return not evidence, evidence, {}


def _main_scripts(shares: dict[str, float]) -> str:
    return ", ".join(f"{s} {v:.0%}" for s, v in sorted(shares.items(), key=lambda kv: -kv[1])[:2]) or "empty"


# 5. semantic grounding


class GroundingParams(Params):
    lance_dir: str = Field(
        "", description="The LanceDB database whose stored vectors to use; empty: embed here."
    )
    model: str = Field("", description="The embedding model; empty: the one the index records, else MiniLM.")
    threshold: float = Field(
        0.40, ge=-1, le=1, description="Least cosine between a sentence and its best passage (docs/llm.md)."
    )
    passage_chars: int = Field(
        600, gt=50, description="Messages without stored vectors are embedded in pieces this long."
    )


@stage
class ProbeGrounding(Probe):
    """Semantic grounding: each summary sentence is close (cosine of embeddings) to some passage of the
    session, using the session's stored chunk vectors where there are."""

    id = "probe.grounding.v1"
    name = "grounding"
    Params = GroundingParams
    timeout_s = 120.0

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        import numpy as np

        from pica.stages.models import query_encoder, recorded_name

        p = self.params
        claims = [s for s in sentences(draft["text"]) if len(words(s)) >= 3]
        if not claims:
            return True, [], {"scores": []}
        model = p.model or (recorded_name(Path(p.lance_dir)) if p.lance_dir else None) or "all-MiniLM-L6-v2"
        encode = query_encoder(model)
        stored, covered = self._stored(messages, model) if p.lance_dir else (None, set())
        pieces = [
            text[i : i + p.passage_chars]
            for m in messages
            if m.get("id") not in covered and (text := (m.get("text") or "").strip())
            for i in range(0, len(text), p.passage_chars)
        ]
        matrices = [m for m in (stored, encode(pieces) if pieces else None) if m is not None and len(m)]
        if not matrices:
            return False, ["the session has no text to compare with"], {"scores": []}
        passages = np.vstack(matrices).astype(np.float32)
        best = (encode(claims) @ passages.T).max(axis=1)
        weak = [(n, float(s)) for n, s in enumerate(best, 1) if s < p.threshold]
        evidence = [
            f"sentence {n} of {len(claims)}: closest passage {s:.2f} < {p.threshold:.2f}" for n, s in weak
        ]
        return not weak, evidence, {"scores": [round(float(s), 3) for s in best]}

    def _stored(self, messages: list[dict], model: str) -> tuple[Any, set[str]]:
        """The stored vectors of the messages' chunks, and the messages they cover."""
        import numpy as np

        from pica.stages.models import model_id, recorded_model
        from pica.stages.retrieve.vectors import store_for
        from pica.stages.store.lance_store import BATCH, in_list

        recorded = recorded_model(Path(self.params.lance_dir))
        if recorded is None or recorded["model"] != model_id(model):
            return None, set()
        store = store_for(self.params.lance_dir)
        ids = [m["id"] for m in messages if m.get("id")]
        rows: list[dict[str, Any]] = []
        for start in range(0, len(ids), BATCH):
            where = f"{in_list('doc_id', ids[start : start + BATCH])} AND vector IS NOT NULL"
            rows += store.chunks.search().where(where).select(["doc_id", "vector"]).limit(None).to_list()
        if not rows:
            return None, set()
        return np.array([r["vector"] for r in rows], dtype=np.float32), {r["doc_id"] for r in rows}


# 6. self-verify

VERIFY = (
    "Here are messages from a session, then numbered claims about it.\n\n"
    "MESSAGES:\n{source}\n\nCLAIMS:\n{claims}\n\n"
    "For each claim, write one line: its number, a colon, then yes if the messages clearly state it "
    "or no if they do not (for instance `3: no`). Write nothing else."
)
ANSWER = re.compile(r"^\W*(?:claim\s*)?(\d+)\s*[:.)\-]\s*\**\s*(yes|no)\b", re.IGNORECASE | re.MULTILINE)


class VerifyParams(ModelParams):
    max_claims: int = Field(12, gt=0, description="Most sentences asked about.")
    context_tokens: int = Field(8192, gt=512, description="The context window asked of the server.")


@stage
class ProbeSelfVerify(Probe):
    """Self-verify: the model, asked in a separate call, says every sentence is supported."""

    id = "probe.self_verify.v1"
    name = "self_verify"
    Params = VerifyParams

    @classmethod
    def example(cls, workdir: Path) -> Example:
        return Example(
            params={"host": recorded(workdir, "1: yes\n2: yes")},
            inputs={
                "draft": {**draft_of(GOOD_DRAFT), "source": "[user] fix fetch.py"},
                "messages": example_messages(),
            },
        )

    def warm_up(self, ctx: Context) -> None:
        p = self.params
        self.model = Model(p.host, p.model, p.timeout_s, {"num_ctx": p.context_tokens})

    def check(self, ctx: Context, draft: dict, messages: list[dict]) -> tuple[bool, list[str], dict]:
        from pica.stages.tokens import heuristic_tokens

        claims = sentences(draft["text"])[: self.params.max_claims]
        numbered = "\n".join(f"{n}. {claim}" for n, claim in enumerate(claims, 1))
        blocks = (draft.get("source") or "").split("\n\n")
        room = self.params.context_tokens - heuristic_tokens(numbered) - 8 * len(claims) - 400
        while len(blocks) > 1 and heuristic_tokens("\n\n".join(blocks)) > room:
            blocks.pop(0)  # the oldest messages go first, as for the draft
        source = "\n\n".join(blocks)
        prompt = [{"role": "user", "content": VERIFY.format(source=source, claims=numbered)}]
        try:
            reply, call = self.model.chat(prompt, "self_verify", max_tokens=8 * len(claims) + 16)
        except ModelUnavailable as error:
            calls = [error.call.record()] if error.call else []
            return False, [f"the model could not check the draft: {error}"], {"calls": calls}
        answers = {int(n): word.lower() for n, word in ANSWER.findall(reply)}
        evidence = []
        unanswered = [n for n in range(1, len(claims) + 1) if n not in answers]
        if unanswered:
            evidence.append(
                f"no yes/no answer for sentence {', '.join(map(str, unanswered))} of {len(claims)}"
            )
        denied = [n for n in range(1, len(claims) + 1) if answers.get(n) == "no"]
        if denied:
            evidence.append(
                f"the model said sentence {', '.join(map(str, denied))} of {len(claims)} is not supported"
            )
        return not evidence, evidence, {"calls": [call.record()]}
