"""Account names (issue 55): one form a name is compared in, and the look-alike keys that keep
one name from passing for another's.

- ``shown_name``: the name as typed, NFKC-normalised: full-width ``Ｂｉｃｅ`` and mathematical
  bold are plain ``Bice``, and a name typed decomposed (NFD) is the one typed composed.
- ``canonical_name``: what the store compares (``accounts.name_key``): NFKC, case folded, NFKC
  again (RFC 8265's UsernameCaseMapped, with NFKC's width mapping), so ``BICE`` is ``bice``.
- ``mixed_scripts``: a name of letters from two scripts that TR39 (Unicode Technical Standard
  39, "Highly Restrictive") would not put together: Latin ``B`` with Cyrillic ``і``.
- ``lookalike_keys``: TR39's skeletons of the name (each letter replaced by the prototype it
  looks like: Cyrillic ``В`` is ``B``, capital ``I`` is ``l``, ``m`` is ``rn``), accents dropped,
  of the name as shown, in capitals and in small letters. Two names with a key in common look
  alike; the store keeps every account's keys under a UNIQUE constraint, so of two look-alikes
  only the first stands.

The look-alike data is Unicode's confusables.txt as the ``confusable-homoglyphs`` package ships
it (each pair kept both ways); the scripts are its copy of Scripts.txt."""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories
from confusable_homoglyphs.utils import load

# TR39 5.2 "Highly Restrictive": one script, or Latin with the scripts that a Chinese, Japanese
# or Korean name is written in (none of them looks like Latin).
SCRIPTS_TOGETHER = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"},
                    {"LATIN", "HAN", "HANGUL"})
ANY_SCRIPT = {"COMMON", "INHERITED"}  # digits, . - _, combining marks: they go with any script
DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")  # (around right-to-left glyphs in the data)


def shown_name(typed: str) -> str:
    """The name as shown and stored: as typed, NFKC-normalised."""
    return unicodedata.normalize("NFKC", typed)


def canonical_name(name: str) -> str:
    """The name as compared: ``Mario``, ``MARIO`` and ``ｍａｒｉｏ`` are one (issue 55)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def mixed_scripts(name: str) -> bool:
    """Whether the name's letters come from scripts that do not go together (TR39's Highly
    Restrictive level): Latin with Cyrillic or Greek, say."""
    scripts = {categories.alias(c) for c in name} - ANY_SCRIPT
    return len(scripts) > 1 and not any(scripts <= together for together in SCRIPTS_TOGETHER)


def lookalike_keys(name: str) -> set[str]:
    """The name's TR39 skeletons, accents dropped, as shown (Cyrillic ``Вісе`` and ``Bice``,
    ``PauI`` and ``Paul``), in capitals (``BİCE``, ``ВІСЕ`` and ``Bice``: ``BlCE``) and in small
    letters (``BİCE`` and ``bice``). Two names look alike when they share one: some form of
    one looks like some form of the other. (Case is never folded after the skeleton: that
    would make ``I`` ``l`` ``L``, and ``Elia`` ``Ella``.)"""
    shown = shown_name(name)
    return {_skeleton(shown), _skeleton(shown.upper()), _skeleton(canonical_name(shown))}


def _skeleton(text: str) -> str:
    """TR39's skeleton (NFD, each character its prototype, NFD), combining marks dropped."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in _unmarked(text))
    return _unmarked(mapped)


def _unmarked(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) not in ("Mn", "Me"))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype. confusables.txt maps a character to the prototype
    it looks like (one character or a sequence, ``m`` to ``rn``); the package keeps each pair
    both ways, so each set of look-alikes is a star around its prototype: the sequence if there
    is one (a source is one character), else the member the others point to. (3,312 sets in
    its data, every one a star; in a set of two single characters either may be the prototype:
    one chosen for both gives the same equalities.) Applied to the prototypes' own characters
    until nothing changes, as TR39's skeleton is idempotent."""
    pairs = load("confusables.json")
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    degree: dict[str, int] = {}
    for source, looks in pairs.items():
        a = source.translate(DIRECTION_MARKS)
        for look in looks:
            b = look["c"].translate(DIRECTION_MARKS)
            if a and b and a != b:
                parent[root(a)] = root(b)
                degree[a] = degree.get(a, 0) + 1
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    prototypes: dict[str, str] = {}
    for group in members.values():
        # The prototype: a sequence if there is one, else the most pointed to (ties: the first).
        chosen = max(sorted(group), key=lambda x: (len(x) > 1, degree.get(x, 0)))
        for x in group:
            if len(x) == 1 and x != chosen:
                prototypes[x] = chosen
    for _ in range(8):  # a prototype's own characters mapped too (idempotent: TR39's skeleton is)
        changed = {c: "".join(prototypes.get(p, p) for p in proto) for c, proto in prototypes.items()}
        if changed == prototypes:
            break
        prototypes = changed
    return prototypes
