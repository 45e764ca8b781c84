"""Secret detection and redaction: provider token formats, credential-bearing syntax, keyed
assignments, literals passed to credential calls, tables' password columns (docs/redaction.md).

`find_secrets(text)` returns (start, end, class) spans; `redact(text)` replaces each with
`[REDACTED:<class>]`. Rules are tried in order (provider tokens, provider contexts, credential
syntax, tools' families, then keyed assignments, arguments, tables, announced values and maps
under a secret's plural name); a span overlapping an earlier one is dropped.

Speed (docs/benchmarks.md, "Redaction speed"): a rule runs only when one of its keywords occurs
in the lowercased text (gitleaks' keyword prefilter). A rule's keywords are the literal prefixes
its pattern must start with (read from the compiled pattern: `gh[pousr]_` gives ghp_, gho_, …),
else the ones it declares. One Aho-Corasick pass (ahocorasick-rs, a DFA) finds which of all the
rules' keywords occur (a one-character one, `.` or `@`, would hit thousands of times: each of those
is one substring search). In a long text (a transcript file) a rule whose matches start with its
keywords, and the keyed scan, are tried only where the automaton found one: a keyword that occurs
once in 300,000 characters no longer costs a scan of all of them. Case-insensitive rules match the lowercased
text, where the engine keeps its literal-prefix search.

The rules are compiled on the first call, not at import (about 0.15 s): every `pica search` imports
this module, and most never redact anything.
"""

from __future__ import annotations

import bisect
import functools
import re
import re._parser as _parser
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

try:  # one pass for all keywords; without it, one substring search per keyword (slower)
    import ahocorasick_rs
except ImportError:  # pragma: no cover
    ahocorasick_rs = None

from pica.stages.secrets.announced import ANNOUNCING_WORDS, find_announced
from pica.stages.secrets.arguments import CALLS, Calls, find_in_arguments
from pica.stages.secrets.code_literals import find_jwk_private
from pica.stages.secrets.keyed import SECRET_WORD, find_keyed
from pica.stages.secrets.sections import SECTION_WORDS, find_in_sections
from pica.stages.secrets.seed_phrases import PHRASE_WORDS, find_seed_phrases
from pica.stages.secrets.servers import find_in_secret_data
from pica.stages.secrets.tables import HEADER_WORDS, find_in_inserts, find_in_tables
from pica.stages.secrets.verify import (
    FIELD,
    TEMPLATE,
    dollar_as_character,
    entropy,
    has_digit,
    token_is_stand_in,
)

if TYPE_CHECKING:
    from pica.stages.secrets.rules import Rule

DOTTED_I = 0x130  # `İ`, whose lowercase is two characters
SHORTEST_KEYWORD = 3  # a rule gated by shorter keywords runs over the whole text
LONG_TEXT = 4096  # from this length a rule is tried where its keywords are, not over the whole text
PLACE_COST = 200  # trying a pattern at one place costs about as much as scanning 200 characters


def literal_prefixes(items: list, limit: int = 64) -> tuple[set[str], bool]:
    """The strings one of which every match of the parsed pattern `items` starts with, and whether
    they span the whole of it. Zero-width assertions are skipped; anything else that is not a
    literal, a set of literals, a group or an alternation ends the prefix."""
    out = {""}
    for op, arg in items:
        if op in (_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT):
            continue
        if op is _parser.LITERAL:
            if arg == DOTTED_I:
                return out, False
            grown, whole = {chr(arg)}, True
        elif op is _parser.IN and all(kind is _parser.LITERAL and c != DOTTED_I for kind, c in arg):
            grown, whole = {chr(c) for _, c in arg}, True
        elif op is _parser.SUBPATTERN:
            grown, whole = literal_prefixes(list(arg[3]), limit)
        elif op is _parser.BRANCH:
            parts = [literal_prefixes(list(branch), limit) for branch in arg[1]]
            grown = set().union(*(part for part, _ in parts))
            whole = all(done for _, done in parts)
        else:
            return out, False
        if len(out) * len(grown) > limit:
            return out, False
        out = {p + g for p in out for g in grown}
        if not whole:
            return out, False
    return out, True


def gate(rule: Rule) -> tuple[tuple[str, ...], bool]:
    """The lowercase keywords of which one must occur for `rule` to match (() when it always runs),
    and whether every match starts with one of them. The pattern's own literal prefixes are
    preferred (they cannot be wrong), unless some are too short to be worth a search and the rule
    declares better ones."""
    derived = {p.lower() for p in literal_prefixes(list(_parser.parse(rule.pattern.pattern)))[0]}
    if "" in derived:  # a branch that starts with no literal: the prefixes gate nothing
        derived = set()
    declared = set(rule.keywords)
    for keywords in (derived, declared):
        if keywords and min(map(len, keywords)) >= SHORTEST_KEYWORD:
            return tuple(sorted(keywords)), keywords is derived
    return tuple(sorted(derived or declared)), bool(derived)


@dataclass(frozen=True)
class RuleSet:
    rules: list[Rule]
    gates: list[tuple[str, ...]]  # each rule's keywords, one of which must occur for it to run
    anchored: list[bool]  # whether each rule's matches start where one of its keywords does
    quoted: frozenset[int]  # the rules whose patterns hold a quote
    always: tuple[int, ...]  # the rules without keywords, which always run
    by_keyword: dict[str, tuple[int, ...]]  # the rules each keyword lets run
    short: tuple[str, ...]  # keywords found by substring search
    words: tuple[str, ...]  # the others, and the keyed scan's and tables' words, in automaton order
    secret_words: tuple[str, ...]  # the keyed scan's: each of its matches starts with one
    call_words: dict[re.Pattern[str], tuple[str, ...]]  # the words each credential call starts with
    automaton: Any  # finds `words` in one Aho-Corasick pass (None without ahocorasick-rs)
    public: frozenset[str]  # published keys that stay public under any name


@functools.cache
def ruleset() -> RuleSet:
    """The rules compiled, with their gates and keyword automaton: built once, on first use."""
    from pica.stages.secrets.admin_scripts import ADMIN_SCRIPTS
    from pica.stages.secrets.automation import AUTOMATION
    from pica.stages.secrets.brokers import BROKERS
    from pica.stages.secrets.chat import CHAT
    from pica.stages.secrets.code_literals import CODE_LITERALS
    from pica.stages.secrets.commerce import COMMERCE
    from pica.stages.secrets.desktops import DESKTOPS
    from pica.stages.secrets.devices import DEVICES
    from pica.stages.secrets.dotfiles import DOTFILES
    from pica.stages.secrets.finance import FINANCE
    from pica.stages.secrets.firmware import FIRMWARE
    from pica.stages.secrets.games import GAMES
    from pica.stages.secrets.mail import MAIL
    from pica.stages.secrets.mainframe import MAINFRAME
    from pica.stages.secrets.network import NETWORK
    from pica.stages.secrets.pipelines import PIPELINES
    from pica.stages.secrets.pki import PKI
    from pica.stages.secrets.qa_tools import QA_TOOLS
    from pica.stages.secrets.rules import CONTEXTUAL, GOOGLE_PUBLIC_KEYS, STRUCTURES, TOKENS
    from pica.stages.secrets.secret_stores import SECRET_STORES
    from pica.stages.secrets.security_tools import SECURITY_TOOLS
    from pica.stages.secrets.servers import SERVERS
    from pica.stages.secrets.services import SERVICES
    from pica.stages.secrets.shells import SHELLS
    from pica.stages.secrets.tunnels import TUNNELS
    from pica.stages.secrets.wallets import WALLETS
    from pica.stages.secrets.web import WEB
    from pica.stages.secrets.windows import WINDOWS

    rules = (
        TOKENS
        + CONTEXTUAL
        + STRUCTURES
        + WALLETS
        + SERVERS
        + CODE_LITERALS
        + SHELLS
        + SECURITY_TOOLS
        + DESKTOPS
        + DOTFILES
        + FINANCE
        + ADMIN_SCRIPTS
        + COMMERCE
        + SECRET_STORES
        + NETWORK
        + PIPELINES
        + WEB
        + GAMES
        + AUTOMATION
        + SERVICES
        + MAIL
        + WINDOWS
        + QA_TOOLS
        + BROKERS
        + MAINFRAME
        + DEVICES
        + FIRMWARE
        + CHAT
        + PKI
        + TUNNELS
    )
    gates, anchored = zip(*(gate(rule) for rule in rules), strict=True)
    quoted = frozenset(i for i, rule in enumerate(rules) if re.search("[\"']", rule.pattern.pattern))
    keywords = sorted({k for keywords in gates for k in keywords})
    # One-character keywords (`.`, `@`) occur everywhere: each is one substring search, not
    # thousands of automaton hits. The others are found in one Aho-Corasick pass, with the words
    # the keyed scan starts from and those of a table's header (tables.py).
    secret_words = tuple(sorted(literal_prefixes(list(_parser.parse(SECRET_WORD.pattern)))[0]))
    call_words = {
        call: tuple(sorted(literal_prefixes(list(_parser.parse(call.pattern)))[0])) for call in CALLS
    }
    words: tuple[str, ...] = ()
    automaton = None
    if ahocorasick_rs is not None:
        called = {word for leads in call_words.values() for word in leads}
        words = tuple(
            sorted(
                {k for k in keywords if len(k) > 1}
                | set(secret_words)
                | set(HEADER_WORDS)
                | called
                | set(PHRASE_WORDS)
                | set(ANNOUNCING_WORDS)
                | {"data:", "kty"}  # (servers.find_in_secret_data, code_literals.find_jwk_private)
                | set(SECTION_WORDS)
            )
        )
        automaton = ahocorasick_rs.AhoCorasick(words, implementation=ahocorasick_rs.Implementation.DFA)
    short = tuple(k for k in keywords if automaton is None or len(k) == 1)
    anchored = [
        done and automaton is not None and not set(keywords) & set(short)
        for keywords, done in zip(gates, anchored, strict=True)
    ]
    always = tuple(i for i, keywords in enumerate(gates) if not keywords)
    by_keyword = {k: tuple(i for i, keywords in enumerate(gates) if k in keywords) for k in keywords}
    public = frozenset(GOOGLE_PUBLIC_KEYS)
    return RuleSet(
        rules,
        list(gates),
        anchored,
        quoted,
        always,
        by_keyword,
        short,
        words,
        secret_words,
        call_words,
        automaton,
        public,
    )


def keywords_in(lowered: str, rules: RuleSet) -> dict[str, Sequence[int]]:
    """Which of the rules' keywords occur in the lowercased text; in a long text, also where each
    that the automaton finds starts (in a short one, reading it all is cheaper than the places)."""
    present: dict[str, Sequence[int]] = dict.fromkeys((k for k in rules.short if k in lowered), ())
    if rules.automaton is None:
        return present
    found = rules.automaton.find_matches_as_indexes(lowered, overlapping=True)
    words = rules.words
    if len(lowered) < LONG_TEXT:
        present.update(dict.fromkeys({words[i] for i, _, _ in found}, ()))
        return present
    for i, start, _ in found:  # in order of their ends: each keyword's places are in order
        present.setdefault(words[i], []).append(start)  # type: ignore[union-attr]
    return present


def matches(pattern: re.Pattern[str], text: str, starts: Sequence[int] | None) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, or, when every match starts at one of `starts`, the same matches
    tried only there: a rule whose keyword occurs once in a long transcript reads one place of it,
    not all of it."""
    if starts is None:
        yield from pattern.finditer(text)
        return
    done = 0
    for at in starts:
        if at >= done and (match := pattern.match(text, at)) is not None:
            done = match.end()
            yield match


def lower(text: str) -> str:
    """The text lowercased, character for character, so offsets in it are offsets in the text:
    the one letter whose lowercase is two characters, Turkish `İ`, becomes `i`."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.replace(chr(DOTTED_I), "i").lower()


def _secret_span(rule: Rule, text: str, match: re.Match[str]) -> tuple[int, int] | None:
    """The secret's span in a rule's match, or None when a check rejects it."""
    group = rule.pattern.groupindex.get("secret") or next(
        (g for g in range(1, rule.pattern.groups + 1) if match.group(g)), 0
    )
    start, end = match.span(group)
    before = text[match.start() - 1 : match.start()]
    if rule.grow is not None:
        grown = rule.grow.search(text, max(0, start - 64), start)
        if grown is None:
            return None
        start = grown.start()
        before = text[start - 1 : start]
    if before in rule.not_after or (rule.not_after and not before.isascii() and before.isalnum()):
        return None  # glued to the end of a longer word
    secret = text[start:end]
    if rule.trusted is not None and rule.trusted(secret):
        return start, end
    if rule.check is not None and not rule.check(secret):
        return None
    if entropy(secret) < rule.min_entropy or token_is_stand_in(secret):
        return None
    # a template is no secret, but for psexec's `%VAR%`
    literal = dollar_as_character(secret)
    templated = group and (TEMPLATE.search(literal) or FIELD.search(literal))
    if templated and not (rule.kind == "cli_credentials" and psexec_variable(text, start, secret)):
        return None
    return start, end


def psexec_variable(text: str, start: int, secret: str) -> bool:
    """`psexec -p %VAR%`: a variable is a password for Nosey Parker (np: psexec.1), there only."""
    return (
        re.fullmatch(r"%\w+%", secret) is not None and "psexec" in text[max(0, start - 300) : start].lower()
    )


# JSON's and C's escapes of white space, of `/` and of the backslash itself. Escaped quotes stay as
# written: the keyed rule pairs the quotes of a line, and a JSON string's own quotes would pair with
# them; the rules allow a backslash before a quote instead (`API_KEY=\\"…\\"`).
ESCAPE = re.compile(r"\\([nt/\\]|r(?=\\n))")  # (`\r` alone is a Windows path's: `\\nas\runs`)
MEANING = {"n": "\n", "t": "\t", "r": "\r"}


# LaTeX as written (`\\texttt{…}`, `\\section{…}`) has backslashes that are commands, not escapes;
# escaped once more (`\\\\texttt`) it is LaTeX inside a JSON string
LATEX_COMMANDS = (
    "\\begin{",
    "\\section",
    "\\subsection",
    "\\texttt{",
    "\\textbf{",
    "\\textit{",
    "\\documentclass",
)


def latex_as_written(text: str) -> bool:
    """Whether `text` holds a LaTeX command whose backslash is not itself escaped (found with
    `str.find`: a regular expression led by a look-behind would scan every character)."""
    for command in LATEX_COMMANDS:
        at = text.find(command)
        while at != -1:
            if text[at - 1 : at] != "\\":
                return True
            at = text.find(command, at + 1)
    return False


def unescaped(text: str) -> tuple[str, list[int]]:
    """The text with its escapes read as what they stand for (`\\n` a line break), and where in it
    each escape's backslash was dropped (the index of the character after it). JSON logs, notebooks
    and escaped tool output hold `…settings\\nghp_…`: read as written, the token is glued to an `n`.
    LaTeX is read as written."""
    if "\\" not in text or latex_as_written(text):
        return text, []
    parts = ESCAPE.split(text)  # text, escaped character, text, …
    if len(parts) == 1:
        return text, []
    out, dropped, length = [parts[0]], [], len(parts[0])
    for i in range(1, len(parts), 2):
        dropped.append(length)
        out += [MEANING.get(parts[i], parts[i]), parts[i + 1]]
        length += 1 + len(parts[i + 1])
    return "".join(out), dropped


def in_text(dropped: list[int], start: int, end: int) -> tuple[int, int]:
    """A span of the unescaped text as a span of the text: each dropped backslash before a
    character moves it one place right, and a span that starts with an escaped character starts
    at its backslash (an escape is never cut in two: JSON stays JSON)."""
    return start + bisect.bisect_left(dropped, start), end + bisect.bisect_right(dropped, end - 1)


def quoted_lines(text: str) -> tuple[str, list[int], list[int], list[int]]:
    """The lines of `text` that hold an escaped quote, joined and read one level down: `\\"` as a
    quote, and the line's own quotes as NUL (they delimit the JSON or C string those lines are
    inside and would pair with the inner ones; NUL is no quote, space or word, so `"password",`
    does not become a `password ,` with a value). Returns the view; where each of its lines starts
    in the lines as written and in `text`; and the dropped backslashes (as `unescaped` gives them:
    where each quote of the view is)."""
    lines: list[tuple[int, str]] = []
    at = text.find('\\"')
    while at != -1:  # each line holding one, once
        start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
        end = len(text) if end == -1 else end
        lines.append((start, text[start:end]))
        at = text.find('\\"', end)
    written, length = [], 0
    for _, line in lines:
        written.append(length)
        length += len(line) + 1
    view = "".join(line.replace('"', "\0").replace("\\\0", '"') + "\n" for _, line in lines)
    quotes = [quote.start() for quote in re.finditer('"', view)]
    return view, written, [at for at, _ in lines], quotes


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    """(start, end, class) of every secret in `text`, sorted, non-overlapping. Text holding escaped
    quotes (`{"output": "export DB_PASSWORD=\\"…\\""}`: a JSON string inside a JSON log, a string
    literal in code) is also read with those quotes as quotes, on the lines that hold them."""
    rules = ruleset()
    text, dropped = unescaped(text)
    lowered = lower(text)
    present = keywords_in(lowered, rules)
    spans = secret_spans(text, lowered, present, rules)
    if '\\"' in text:
        view, written, in_text_at, quotes = quoted_lines(text)
        # only the rules a quote can matter to: a token's own format is found in the text already
        lowered = lower(view)
        for start, end, kind in secret_spans(view, lowered, keywords_in(lowered, rules), rules, quoted=True):
            if "\0" in view[start:end]:
                continue  # a span over a string's own quote
            start, end = in_text(quotes, start, end)
            line = bisect.bisect_right(written, start) - 1
            last = bisect.bisect_right(written, end - 1) - 1
            add(spans, in_text_at[line] + start - written[line], in_text_at[last] + end - written[last], kind)
    everywhere(text, spans)
    return sorted((*in_text(dropped, start, end), kind) for start, end, kind in spans)


def everywhere(text: str, spans: list[tuple[int, int, str]]) -> None:
    """A secret found once is one wherever else it stands whole in the text: a fixture's password
    confirmation, a token a command echoes back, a key pasted twice. Only what no one writes for
    another reason is looked for: eight characters or more, with letters and a digit (not a word,
    `password`, that a rule took as a value)."""
    for start, end, kind in list(spans):
        secret = text[start:end]
        if len(secret) < 8 or not has_digit(secret) or not re.search(r"[A-Za-z]", secret):
            continue
        at = text.find(secret)
        while at != -1:
            after = at + len(secret)
            glued = (secret[0].isalnum() and text[at - 1 : at].isalnum()) or (
                secret[-1].isalnum() and text[after : after + 1].isalnum()
            )
            if not glued:
                add(spans, at, after, kind)
            at = text.find(secret, after)


def add(spans: list[tuple[int, int, str]], start: int, end: int, kind: str) -> None:
    """Add a span unless empty or overlapping one found before it."""
    if end > start and not any(s < end and start < e for s, e, _ in spans):
        spans.append((start, end, kind))


def secret_spans(
    text: str, lowered: str, present: dict[str, Sequence[int]], rules: RuleSet, quoted: bool = False
) -> list[tuple[int, int, str]]:
    """The spans of `text` that the rules (only those whose patterns hold a quote, if `quoted`), the
    keyed scan, the arguments of credential calls and the tables find, in that order; `present`
    holds the keywords that occur in it (or more), with their places in a long text."""
    run = set(rules.always).union(*(rules.by_keyword.get(k, ()) for k in present))
    long = len(lowered) >= LONG_TEXT
    spans: list[tuple[int, int, str]] = []
    for i in sorted(run & rules.quoted if quoted else run):
        rule, starts = rules.rules[i], None
        if long and rules.anchored[i]:
            starts = places(present, rules.gates[i])
            if len(starts) * PLACE_COST >= len(lowered):
                starts = None  # one scan of the text is cheaper
        for match in matches(rule.pattern, lowered if rule.lowered else text, starts):
            if rule.near and not rule.near.search(lowered, max(0, match.start() - 60), match.start()):
                continue
            if rule.unless and rule.unless.search(
                lowered, lowered.rfind("\n", 0, match.start()) + 1, match.start()
            ):
                continue
            span = _secret_span(rule, text, match)
            if span is not None:
                add(spans, *span, rule.kind)
    found = chain(
        find_keyed(text, lowered, keyed_hits(lowered, present, rules) if long else None),
        find_in_arguments(text, lowered, call_matches(lowered, present, rules, long)),
        tables_in(text, lowered, present, rules),
        find_in_inserts(text) if "insert into" in lowered else (),
        find_seed_phrases(text, lowered)
        if rules.automaton is None or not PHRASE_WORDS.isdisjoint(present)
        else (),
        announced_in(text, lowered, present, rules, long),
        # (a Kubernetes Secret's data, a JSON Web Key: read only where the automaton found their words)
        find_in_secret_data(text, lowered) if rules.automaton is None or "data:" in present else (),
        find_jwk_private(text, lowered) if rules.automaton is None or "kty" in present else (),
        find_in_sections(text, lowered)
        if rules.automaton is None or not present.keys().isdisjoint(SECTION_WORDS)
        else (),
    )
    for start, end, kind in found:
        if text[start:end] not in rules.public:  # published keys stay public under any name
            add(spans, start, end, kind)
    return spans


def places(present: dict[str, Sequence[int]], words: Sequence[str]) -> Sequence[int]:
    """Where in a long text any of `words` starts, in order, as the automaton found them."""
    found = [present[word] for word in words if word in present]
    return found[0] if len(found) == 1 else sorted(chain.from_iterable(found))


def keyed_hits(
    lowered: str, present: dict[str, Sequence[int]], rules: RuleSet
) -> Iterator[re.Match[str]] | None:
    """In a long text, the keyed scan's start words tried only where the automaton found them."""
    if rules.automaton is None:
        return None
    return matches(SECRET_WORD, lowered, places(present, rules.secret_words))


def call_matches(lowered: str, present: dict[str, Sequence[int]], rules: RuleSet, long: bool) -> Calls | None:
    """How to find a credential call's pattern in `lowered`: not at all when none of its leading
    words occurs, only where they occur in a long text (None without the automaton: everywhere)."""
    if rules.automaton is None:
        return None

    def found(pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        leads = [word for word in rules.call_words[pattern] if word in present]
        if not leads:
            return iter(())
        if not long:
            return pattern.finditer(lowered)
        return matches(pattern, lowered, places(present, leads))

    return found


def announced_in(
    text: str, lowered: str, present: dict[str, Sequence[int]], rules: RuleSet, long: bool
) -> Iterator[tuple[int, int, str]]:
    """Values announced by a secret's word (announced.py), looked for where the automaton found one."""
    if rules.automaton is None:
        return find_announced(text, lowered)
    words = [word for word in ANNOUNCING_WORDS if word in present]
    if not words:
        return iter(())
    if long:
        return find_announced(text, lowered, places(present, words))
    # a short text: its words' places by `str.find` (a pattern led by a look-behind reads every character)
    starts = sorted(at for word in words for at in occurrences(lowered, word))
    return find_announced(text, lowered, starts)


def occurrences(text: str, word: str) -> Iterator[int]:
    """Where `word` starts in `text`, overlapping occurrences too."""
    at = text.find(word)
    while at != -1:
        yield at
        at = text.find(word, at + 1)


def tables_in(text: str, lowered: str, present: dict[str, Sequence[int]], rules: RuleSet) -> Iterator:
    """The passwords in tables, looked for where the automaton found a header's word (tables.py)."""
    if rules.automaton is None:
        return find_in_tables(text, lowered)
    words = [word for word in HEADER_WORDS if word in present]
    if not words:
        return iter(())
    if len(lowered) < LONG_TEXT:
        return find_in_tables(text, lowered)
    return find_in_tables(text, lowered, places(present, words))


def redact(text: str, found: Counter[str] | None = None) -> str:
    """The text with each secret replaced by [REDACTED:<class>] (counted into `found`), the same
    object when there is none. A multi-line secret (a PEM block) leaves its line breaks behind,
    escaped ones (`\\n` in JSON) escaped, so the line numbers of what follows still match the source."""
    spans = find_secrets(text)
    if not spans:
        return text
    parts, last = [], 0
    for start, end, kind in spans:
        if found is not None:
            found[kind] += 1
        breaks = "\n" * text.count("\n", start, end) + "\\n" * text.count("\\n", start, end)  # real, escaped
        parts += [text[last:start], f"[REDACTED:{kind}]", breaks]
        last = end
    parts.append(text[last:])
    return "".join(parts)
