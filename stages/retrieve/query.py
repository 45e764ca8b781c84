"""The user's query syntax, parsed by us and built into Tantivy query objects.

The syntax is what the README promises and nothing more: AND, OR, NOT, NEAR and NEAR/n in
capitals, "phrases", ( ), and the field prefixes title: text: meta: path:. Every other character
is text (`back-off`, `app.py:23`, `TypeError: x`, URLs), and an unclosed quote or bracket is
ignored, so no query can be a syntax error. Tantivy's own parser never sees the user's text.

Parts written side by side are a question: they rank by BM25 over any of them (as published
BM25 runs do, and Lucene's default OR); a chunk holding every one can have its score multiplied
by 1 + all_words_boost (0 by default: BM25's sum already ranks it higher). The operators are
strict where they are written: `a AND b` needs both, `NOT a` excludes, a phrase needs its words
in order, `a NEAR b` near each other in either order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pica.stages.index.keyword_index import FIELD_ANALYZER, SEARCH_FIELDS, analyzer
from pica.stages.terms import STOPWORDS

FIELDS = ("title", "text", "meta", "path")
OPERATORS = re.compile(r"^(AND|OR|NOT|NEAR(?:/(\d{1,3}))?)$")
NEAR_SLOP = 5
LEXEME = re.compile(
    r'(?P<field>(?:title|text|meta|path):)?"(?P<phrase>[^"]*)"'  # "a phrase", title:"a phrase"
    r"|(?P<open>\()|(?P<close>\))"
    r'|(?P<word>[^\s()"]+|")'
)
# Scripts written without spaces; the index holds each of their characters as a token.
CJK_CHAR = (
    "\u1100-\u11ff\u3040-\u309f\u30a0-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
PIECE = re.compile(rf"[{CJK_CHAR}]+|[^\W_{CJK_CHAR}]+")
CJK_RUN = re.compile(rf"^[{CJK_CHAR}]+$")


@dataclass(frozen=True)
class Words:
    text: str
    field: str = ""


@dataclass(frozen=True)
class Phrase:
    text: str
    field: str = ""


@dataclass(frozen=True)
class Not:
    part: Any


@dataclass(frozen=True)
class All:
    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Side:
    """Parts side by side: any of them, those holding all lifted."""

    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Any_:
    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Near:
    left: Any
    right: Any
    slop: int


@dataclass(frozen=True)
class Lexeme:
    kind: str  # word, phrase, open, close, op
    text: str
    field: str = ""
    slop: int = 0


def lex(query: str) -> list[Lexeme]:
    lexemes = []
    for match in LEXEME.finditer(query):
        if match.group("phrase") is not None:
            lexemes.append(Lexeme("phrase", match.group("phrase"), (match.group("field") or "").rstrip(":")))
        elif match.group("open"):
            lexemes.append(Lexeme("open", "("))
        elif match.group("close"):
            lexemes.append(Lexeme("close", ")"))
        elif operator := OPERATORS.match(match.group("word")):
            slop = int(operator.group(2)) if operator.group(2) else NEAR_SLOP
            lexemes.append(Lexeme("op", operator.group(1).split("/")[0], slop=slop))
        else:
            lexemes.append(_word(match.group("word")))
    return lexemes


def _word(text: str) -> Lexeme:
    field, _, rest = text.partition(":")
    if field in FIELDS and rest:
        return Lexeme("word", rest, field)
    return Lexeme("word", text)


class Parser:
    """Recursive descent, forgiving: an operator without its operand and a stray bracket are
    dropped. OR binds loosest, then AND (or side by side), NOT, and NEAR tightest."""

    def __init__(self, lexemes: list[Lexeme]):
        self.lexemes = lexemes
        self.at = 0

    def parse(self) -> Any:
        parts = []
        while self.at < len(self.lexemes):
            if part := self._or():
                parts.append(part)
            if self._peek("close"):
                self.at += 1  # a ) that closes nothing
        return _joined(Side, parts)

    def _peek(self, kind: str, text: str = "") -> bool:
        if self.at >= len(self.lexemes):
            return False
        lexeme = self.lexemes[self.at]
        return lexeme.kind == kind and (not text or lexeme.text == text)

    def _or(self) -> Any:
        parts = [self._and()]
        while self._peek("op", "OR"):
            self.at += 1
            parts.append(self._and())
        return _joined(Any_, [p for p in parts if p])

    def _and(self) -> Any:
        """Parts side by side, each a chain of parts joined by AND."""
        parts = []
        while self.at < len(self.lexemes) and not self._peek("close") and not self._peek("op", "OR"):
            if self._peek("op", "AND"):
                self.at += 1  # AND with nothing before it
                continue
            chain = [self._not()]
            while self._peek("op", "AND"):
                self.at += 1
                chain.append(self._not())
            if part := _joined(All, [p for p in chain if p]):
                parts.append(part)
        return _joined(Side, parts)

    def _not(self) -> Any:
        if self._peek("op", "NOT"):
            self.at += 1
            part = self._not()
            return Not(part) if part else None
        return self._near()

    def _near(self) -> Any:
        left = self._atom()
        while self._peek("op", "NEAR"):
            slop = self.lexemes[self.at].slop
            self.at += 1
            right = self._atom()
            left = Near(left, right, slop) if left and right else left or right
        return left

    def _atom(self) -> Any:
        if self.at >= len(self.lexemes):
            return None
        lexeme = self.lexemes[self.at]
        self.at += 1
        if lexeme.kind == "open":
            inner = self._or()
            if self._peek("close"):
                self.at += 1
            return inner
        if lexeme.kind == "phrase":
            return Phrase(lexeme.text, lexeme.field)
        if lexeme.kind == "word":
            return Words(lexeme.text, lexeme.field)
        return None  # AND or NEAR where a word should be


def _joined(kind: type, parts: list[Any]) -> Any:
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else kind(tuple(parts))


def pieces(text: str) -> list[str]:
    """The runs of letters and digits in `text`, and its runs of CJK characters, in order."""
    return PIECE.findall(text)


class QueryBuilder:
    """Builds Tantivy queries over the searchable fields from parsed parts."""

    def __init__(
        self,
        schema: Any,
        title_boost: float,
        all_words_boost: float,
        stopwords: bool,
        fields: list[str] = SEARCH_FIELDS,
    ):
        import tantivy

        self.tantivy = tantivy
        self.schema = schema
        self.boosts = {"title": title_boost}
        self.all_words_boost = all_words_boost
        self.stopwords = stopwords
        self.strict = False
        self.fields = fields

    def build(self, query: str, strict: bool = False) -> Any:
        """The Tantivy query for the user's text (strict: parts side by side must all match);
        None when it holds no word to search for."""
        self.strict = strict
        return self._part(Parser(lex(query)).parse())

    def _side(self, parts: tuple[Any, ...]) -> Any:
        """Any of the parts, BM25-ranked; chunks holding all of them lifted. A part of plain words
        counts each word (or CJK bigram) as a part of its own."""
        Query, Occur = self.tantivy.Query, self.tantivy.Occur
        units = self._units([p for p in parts if isinstance(p, Words)])
        units += [q for p in parts if not isinstance(p, Words | Not) and (q := self._part(p)) is not None]
        excluded = [q for p in parts if isinstance(p, Not) and (q := self._part(p.part)) is not None]
        if not units:
            return self._and(tuple(p for p in parts if isinstance(p, Not)))
        if self.strict:
            clauses = [(Occur.Must, unit) for unit in units]
        else:
            clauses = [(Occur.Should, unit) for unit in units]
            if len(units) > 1 and self.all_words_boost > 0:
                every = Query.boolean_query([(Occur.Must, unit) for unit in units])
                clauses.append((Occur.Should, Query.boost_query(every, self.all_words_boost)))
        if len(clauses) == 1 and not excluded:
            return clauses[0][1]
        return Query.boolean_query(clauses + [(Occur.MustNot, q) for q in excluded])

    def _units(self, parts: list[Words]) -> list[Any]:
        """One query per distinct word (stop words left out unless that is all) or CJK bigram."""
        words = [(piece, part.field) for part in parts for piece in pieces(part.text)]
        if self.stopwords:
            content = [(w, f) for w, f in words if w.lower() not in STOPWORDS]
            words = content or words
        units, seen = [], set()
        for piece, field in words:
            for unit in _bigrams(piece) if CJK_RUN.match(piece) else [piece]:
                key = (unit.lower(), field)
                if key not in seen and (query := self._unit(unit, field)) is not None:
                    seen.add(key)
                    units.append(query)
        return units

    def _part(self, part: Any) -> Any:
        Query, Occur = self.tantivy.Query, self.tantivy.Occur
        if part is None:
            return None
        if isinstance(part, Words | Side):
            return self._side(part.parts if isinstance(part, Side) else (part,))
        if isinstance(part, Phrase):
            return self._fields(part.field, lambda field: self._phrase(field, part.text, 0))
        if isinstance(part, Near):
            return self._near(part)
        if isinstance(part, Not):
            inner = self._part(part.part)
            return inner and Query.boolean_query([(Occur.Must, Query.all_query()), (Occur.MustNot, inner)])
        if isinstance(part, Any_):
            parts = [q for q in map(self._part, part.parts) if q is not None]
            return Query.boolean_query([(Occur.Should, q) for q in parts]) if parts else None
        return self._and(part.parts)

    def _and(self, parts: tuple[Any, ...]) -> Any:
        Query, Occur = self.tantivy.Query, self.tantivy.Occur
        clauses = []
        for part in parts:
            negative = isinstance(part, Not)
            query = self._part(part.part if negative else part)
            if query is not None:
                clauses.append((Occur.MustNot if negative else Occur.Must, query))
        if not any(occur == Occur.Must for occur, _ in clauses):
            if not clauses:
                return None
            clauses.append((Occur.Must, Query.all_query()))  # only NOTs: everything else
        return Query.boolean_query(clauses)

    def _unit(self, piece: str, field: str) -> Any:
        """One word, or one run of CJK characters (a phrase of them), in `field` or any field."""
        return self._fields(field, lambda f: self._phrase(f, piece, 0))

    def _near(self, near: Near) -> Any:
        left, right = _text_of(near.left), _text_of(near.right)
        if left is None or right is None:
            return self._and((near.left, near.right))
        field = _field_of(near.left) or _field_of(near.right)

        def either_order(f: str) -> Any:
            a, b = self._tokens(f, left), self._tokens(f, right)
            if not a or not b:
                return None
            Occur = self.tantivy.Occur
            orders = [self._phrase_of(f, a + b, near.slop), self._phrase_of(f, b + a, near.slop)]
            return self.tantivy.Query.boolean_query([(Occur.Should, q) for q in orders])

        return self._fields(field, either_order)

    def _fields(self, field: str, build: Any) -> Any:
        """`build(field)` for the one field named, or for every searchable field, weighted."""
        Occur = self.tantivy.Occur
        clauses = []
        for name in [field] if field else self.fields:
            query = build(name)
            if query is None:
                continue
            boost = self.boosts.get(name, 1.0)
            if boost == 0:
                continue
            weighted = query if boost == 1 else self.tantivy.Query.boost_query(query, boost)
            clauses.append((Occur.Should, weighted))
        if not clauses:
            return None
        return clauses[0][1] if len(clauses) == 1 else self.tantivy.Query.boolean_query(clauses)

    def _tokens(self, field: str, text: str) -> list[str]:
        return analyzer(FIELD_ANALYZER[field]).analyze(text)

    def _phrase(self, field: str, text: str, slop: int) -> Any:
        return self._phrase_of(field, self._tokens(field, text), slop)

    def _phrase_of(self, field: str, tokens: list[str], slop: int) -> Any:
        if not tokens:
            return None
        if len(tokens) == 1:
            return self.tantivy.Query.term_query(self.schema, field, tokens[0], index_option="freq")
        return self.tantivy.Query.phrase_query(self.schema, field, tokens, slop)


def _bigrams(run: str) -> list[str]:
    """Overlapping pairs of a CJK run, each searched as a two-character phrase (Lucene's CJK
    bigrams); a single character stays itself."""
    return [run] if len(run) < 3 else [run[i : i + 2] for i in range(len(run) - 1)]


def _text_of(part: Any) -> str | None:
    return part.text if isinstance(part, Words | Phrase) else None


def _field_of(part: Any) -> str:
    return part.field if isinstance(part, Words | Phrase) else ""
