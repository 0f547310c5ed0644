"""Ottocento's combinations (tarocchi.games.ottocento_combos): one test per ruling B10-B18 and
B25, the hand-built cases O4-O6 and O12, B27's declarations and piles as the ruling itemises them
(shared/rules/OTTOCENTO.md), the refusals by id, and a brute-force reference written here from
the rulings, independently of the module, that best / best_all / score / check / shrinkable must
agree with on thousands of random piles."""

from __future__ import annotations

import doctest
import random
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st

from tarocchi.engine.game import Reason
from tarocchi.games import ottocento_combos as oc
from tarocchi.games.ottocento_combos import (
    CONTATORI, CRICCHE, KINDS, REASONS, SEQUENCES, ComboError, Combination, best, best_all, check,
    pile_score, score, shrinkable,
)


def items(combos):
    return [(c.kind, c.size, c.points) for c in combos]


def hand(text: str) -> list[str]:
    return text.split()


def refused(kind: str, cards: str) -> str:
    with pytest.raises(ComboError) as e:
        check(kind, cards.split())
    assert isinstance(e.value.reason, Reason)
    return e.value.reason.id


# --- the brute-force reference: the rulings read directly -------------------------------------
# Written from OTTOCENTO.md alone: the 62 codes, each kind's cards, and a validity predicate that
# tries every placement of the contatori (each one added, or filling one place).

R_TRUMPS = [str(n) for n in range(20, 4, -1)] + ["1", "2", "3", "4", "0"]  # B1, B2
R_SUITS = "COSB"
R_RANKS = ["K", "Q", "H", "M", "10", "9", "8", "7", "6", "1"]
R_CARDS = R_TRUMPS + ["F"] + [r + s for s in R_SUITS for r in R_RANKS]
assert len(R_CARDS) == 62 and set(R_CARDS) == set(oc.CARDS)
R_WILD = {"0", "F"}  # B3
R_CRICCA = {"tarocchi": ({"20", "19", "0", "F"}, 18), "kings": ({"K" + s for s in R_SUITS}, 17),
            "queens": ({"Q" + s for s in R_SUITS}, 14), "cavalli": ({"H" + s for s in R_SUITS}, 13),
            "fanti": ({"M" + s for s in R_SUITS}, 12)}  # B10
R_GRANDE = [str(n) for n in range(20, 4, -1)]  # B13, B14: 20 19 18 17 | 16 .. 5
R_SUIT = {"cups": "C", "coins": "O", "swords": "S", "batons": "B"}


def r_points(kind: str, n: int) -> int:
    if kind in R_CRICCA:
        return R_CRICCA[kind][1] * (n - 2)  # B10: three, or four for double
    return 10 + 5 * (n - 3)  # B11


def r_placements(wild: list[str], places: list[str]):
    """Every placement of the contatori: each one added (None) or in a distinct place."""
    for roles in product([None, *places], repeat=len(wild)):
        fills = [p for p in roles if p is not None]
        if len(set(fills)) == len(fills):
            yield fills


def r_valid_grande(real: set[str], wild: list[str]) -> bool:
    if not real <= set(R_GRANDE) or "20" not in real:  # B13: the real 20
        return False
    if not real & {"19", "18", "17"}:  # B13: one real card of the next three
        return False
    for fills in r_placements(wild, [p for p in R_GRANDE[1:] if p not in real]):
        occupied = real | set(fills)
        if sum(p not in occupied for p in ("19", "18", "17")) > 1:  # B13: one may stay empty
            continue
        ext = R_GRANDE[4:]
        run = 0
        while run < len(ext) and ext[run] in occupied:
            run += 1
        if any(p in occupied for p in ext[run:]):  # B14: consecutive from 16 down
            continue
        idx = sorted(R_GRANDE.index(p) for p in fills)
        if any(b - a == 1 and {R_GRANDE[a], R_GRANDE[b]} != {"17", "16"} for a, b in zip(idx, idx[1:])):
            continue  # B14: no two contatori in neighbouring places, except 17 and 16
        return True
    return False


def r_valid_suit(suit: str, real: set[str], wild: list[str]) -> bool:
    k, q, h, m, a = (r + suit for r in ("K", "Q", "H", "M", "1"))
    if not real <= {k, q, h, m, a} or k not in real or not real & {q, h, m}:  # B15
        return False
    for fills in r_placements(wild, [p for p in (q, h, m) if p not in real]):  # never the King (B12)
        if sum(p not in real | set(fills) for p in (q, h, m)) <= 1:
            return True
    return False


def r_valid(kind: str, cards: frozenset[str]) -> bool:
    """Is this exact set a valid combination of that kind? A direct reading of B10-B16."""
    if kind in R_CRICCA:
        return cards <= R_CRICCA[kind][0] and len(cards) in (3, 4)
    real = set(cards - R_WILD)
    wild = sorted(cards & R_WILD)
    if len(cards) < 3:  # B11
        return False
    if kind == "grande":
        return r_valid_grande(real, wild)
    if kind in R_SUIT:
        return r_valid_suit(R_SUIT[kind], real, wild)
    pool = {"1", "2", "3", "4"} if kind == "moors" else {"1" + s for s in R_SUITS}  # B16
    return real <= pool and len(real) >= 2 and len(cards) <= 6


def r_relevant(kind: str, pile: set[str]) -> list[str]:
    if kind in R_CRICCA:
        return sorted(pile & R_CRICCA[kind][0])
    pool = (set(R_GRANDE) if kind == "grande" else {r + R_SUIT[kind] for r in "KQHM"} | {"1" + R_SUIT[kind]}
            if kind in R_SUIT else {"1", "2", "3", "4"} if kind == "moors" else {"1" + s for s in R_SUITS})
    return sorted(pile & (pool | R_WILD))


def r_best_by_subsets(kind: str, pile: set[str]) -> frozenset[str] | None:
    """The largest valid subset, trying every subset from the largest down."""
    rel = r_relevant(kind, pile)
    for n in range(len(rel), 2, -1):
        found = [frozenset(s) for s in combinations(rel, n) if r_valid(kind, frozenset(s))]
        if found:
            assert len(found) == 1, (kind, found)  # B17: the largest is unique
            return found[0]
    return None


def r_best_grande(pile: set[str]) -> frozenset[str] | None:
    """The Grande by every placement of the contatori: for each, the most real cards it admits."""
    if "20" not in pile:
        return None
    wild = sorted(pile & R_WILD)
    top = None
    for fills in r_placements(wild, R_GRANDE[1:]):
        real = {p for p in R_GRANDE if p in pile and p not in fills}
        occupied = real | set(fills)
        ext = R_GRANDE[4:]
        run = 0
        while run < len(ext) and ext[run] in occupied:
            run += 1
        if any(p in fills for p in ext[run:]):
            continue
        chosen = {p for p in R_GRANDE[:4] if p in real} | {p for p in ext[:run] if p in real}
        if not chosen & {"19", "18", "17"} or sum(p not in occupied for p in ("19", "18", "17")) > 1:
            continue
        idx = sorted(R_GRANDE.index(p) for p in fills)
        if any(b - a == 1 and {R_GRANDE[a], R_GRANDE[b]} != {"17", "16"} for a, b in zip(idx, idx[1:])):
            continue
        got = frozenset(chosen | set(wild))
        if len(got) >= 3 and (top is None or len(got) > len(top)):
            top = got
    return top


def r_best(kind: str, pile: set[str]) -> frozenset[str] | None:
    if kind == "grande" and len(r_relevant(kind, pile)) > 10:
        return r_best_grande(pile)
    return r_best_by_subsets(kind, pile)


def r_score(found: dict[str, frozenset[str]]) -> int:
    """B18: three or more cricche double the cricche; three or more sequences the sequences."""
    total = 0
    for group in (set(R_CRICCA), set(KINDS) - set(R_CRICCA)):
        these = [r_points(k, len(v)) for k, v in found.items() if k in group]
        total += sum(these) * (2 if len(these) >= 3 else 1)
    return total


# Random piles, weighted towards trumps, contatori and face cards so the hard cases occur.
WEIGHT = {c: 1 for c in R_CARDS}
WEIGHT.update({c: 7 for c in R_WILD})
WEIGHT.update({c: 6 for c in ("20", "19", "18", "17")})
WEIGHT.update({c: 4 for c in R_GRANDE[4:] + ["1", "2", "3", "4"]})
WEIGHT.update({r + s: 4 for r in ("K", "Q", "H", "M", "1") for s in R_SUITS})


TRUMP_HEAVY = {**WEIGHT, **{c: 12 for c in R_GRANDE}}  # long Grandes with gaps


def random_pile(rng: random.Random, n: int, weight: dict[str, int] = WEIGHT) -> list[str]:
    cards = list(R_CARDS)
    out = []
    for _ in range(n):
        c = rng.choices(cards, [weight[x] for x in cards])[0]
        cards.remove(c)
        out.append(c)
    return out


def nearby_sets(rng: random.Random, kind: str, held: set[str], found: frozenset[str] | None):
    """Sets to check: the best itself less one to three cards, plus one held card of the kind
    not in it; and a random set of the kind's held cards."""
    rel = r_relevant(kind, held)
    if found:
        base = sorted(found)
        for _ in range(3):
            sub = set(rng.sample(base, max(0, len(base) - rng.randint(0, 3))))
            rest = [c for c in rel if c not in sub]
            if rest and rng.random() < 0.5:
                sub.add(rng.choice(rest))
            yield frozenset(sub)
    yield frozenset(rng.sample(rel, rng.randint(0, len(rel)))) if rel else frozenset()


PILES = 5000


def test_brute_force_reference_agrees_on_random_piles():
    """best, best_all, score, pile_score against the reference on 5000 random piles of 0-20
    cards (and, where a pile's Grande cards are few, the Grande by every subset as well as by
    every placement); check against the reference on sets near each best and random sets."""
    rng = random.Random(802)
    both_ways = 0
    checked = {True: 0, False: 0}
    for i in range(PILES):
        pile = random_pile(rng, rng.randint(0, 20) if i % 3 else rng.randint(12, 20),
                           TRUMP_HEAVY if i % 4 == 3 else WEIGHT)
        held = set(pile)
        combos, total = pile_score(pile)
        assert combos == best_all(pile)
        found = {}
        for kind in KINDS:
            want = r_best(kind, held)
            if kind == "grande" and len(r_relevant(kind, held)) <= 10 and "20" in held:
                assert r_best_grande(held) == want, pile
                both_ways += 1
            got = best(kind, pile)
            assert (got is None) == (want is None), (kind, pile, got, want)
            if want is None:
                continue
            found[kind] = want
            assert set(got.cards) == want and len(got.cards) == got.size == len(want), (kind, pile, got)
            assert got.points == r_points(kind, got.size)
            assert check(kind, list(reversed(got.cards))) == got  # check accepts what best finds
            assert got.cards == tuple(sorted(got.cards, key=oc.ORDER.__getitem__))
        assert [c.kind for c in combos] == [k for k in KINDS if k in found]
        assert total == score(combos) == r_score(found), pile
        for kind in rng.sample(KINDS, 4):  # check on sets near this pile's best, and random ones
            for sub in nearby_sets(rng, kind, held, found.get(kind)):
                checked[r_valid(kind, sub)] += 1
                try:
                    got = check(kind, sorted(sub))
                except ComboError as e:
                    assert not r_valid(kind, sub), (kind, sorted(sub), e.reason.id)
                    assert e.reason in REASONS
                else:
                    assert r_valid(kind, sub), (kind, sorted(sub))
                    assert got.size == len(sub) and got.points == r_points(kind, len(sub))
    assert both_ways > 300 and checked[True] > 1500 and checked[False] > 10000, (both_ways, checked)


def test_check_agrees_with_reference_on_every_subset_of_full_kinds():
    """Every subset of each suit's sequence cards with the contatori, of the Moors, the aces and
    each cricca's cards (all the sets there are), and of a long Grande: check == the reference."""
    pools = {k: (sorted(R_CRICCA[k][0]) if k in R_CRICCA else r_relevant(k, set(R_CARDS))) for k in KINDS}
    pools["grande"] = ["20", "19", "18", "17", "16", "15", "14", "13", "12", "0", "F"]
    pools["grande low"] = ["20", "18", "17", "15", "14", "12", "10", "9", "7", "6", "0", "F"]
    for name, pool in pools.items():
        kind = name.split()[0]
        for n in range(len(pool) + 1):
            for sub in combinations(pool, n):
                ok = r_valid(kind, frozenset(sub))
                try:
                    c = check(kind, sub)
                except ComboError:
                    assert not ok, (kind, sub)
                else:
                    assert ok and c.size == n, (kind, sub)


def test_shrinkable_matches_reference_and_reaches_every_valid_subset():
    """Each card shrinkable names leaves a valid combination (check and the reference), no other
    does; and from a combination every valid smaller one of its kind is reached by shrinking."""
    rng = random.Random(9)
    for _ in range(120):
        pile = random_pile(rng, 20)
        for combo in best_all(pile):
            cards = set(combo.cards)
            removable = shrinkable(combo)
            for c in combo.cards:
                assert (c in removable) == r_valid(combo.kind, frozenset(cards - {c})), (combo, c)
            for c in removable:
                check(combo.kind, [d for d in combo.cards if d != c])
            if combo.size > 9:
                continue
            reached, todo = {frozenset(cards)}, [combo]
            while todo:
                here = todo.pop()
                for c in shrinkable(here):
                    smaller = check(here.kind, [d for d in here.cards if d != c])
                    if frozenset(smaller.cards) not in reached:
                        reached.add(frozenset(smaller.cards))
                        todo.append(smaller)
            every = {frozenset(s) for n in range(3, len(cards) + 1) for s in combinations(sorted(cards), n)
                     if r_valid(combo.kind, frozenset(s))}
            assert reached == every, combo


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(R_CARDS), unique=True, max_size=24), st.sampled_from(R_CARDS))
def test_more_cards_never_make_a_smaller_best(pile, extra):
    """Adding a card to a set never shrinks its best of any kind, nor its score."""
    bigger = pile if extra in pile else pile + [extra]
    for kind in KINDS:
        a, b = best(kind, pile), best(kind, bigger)
        assert a is None or (b is not None and b.size >= a.size)
    assert pile_score(bigger)[1] >= pile_score(pile)[1]


# --- the API ----------------------------------------------------------------------------------

def test_api_constants_and_json():
    assert KINDS == ("tarocchi", "kings", "queens", "cavalli", "fanti",
                     "grande", "cups", "coins", "swords", "batons", "moors", "aces")
    assert CRICCHE == frozenset(KINDS[:5]) and SEQUENCES == frozenset(KINDS[5:])
    assert CONTATORI == ("0", "F")
    c = check("moors", ["3", "1", "F", "2"])
    assert c == Combination("moors", ("1", "2", "3", "F"), 4, 15)
    assert c.to_json() == {"kind": "moors", "cards": ["1", "2", "3", "F"], "size": 4, "points": 15}
    assert all(isinstance(r, Reason) and r.id for r in REASONS)
    assert len({r.id for r in REASONS}) == len(REASONS)
    with pytest.raises(TypeError):
        best("kings", "KC KO KS")


def test_the_examples_in_the_docs_run():
    result = doctest.testmod(oc)
    assert result.attempted > 0 and result.failed == 0


def test_combo_error_is_a_value_error_with_a_reason_and_its_card():
    with pytest.raises(ValueError) as e:
        check("grande", hand("20 19 18 17 14"))
    err = e.value
    assert isinstance(err, ComboError) and err.reason is oc.GAP and err.card == "14"
    assert str(err) == f"{oc.GAP}: 14"
    with pytest.raises(ComboError) as e:
        best("kings", ["KC", "KC"])
    assert e.value.reason.id == "combo_repeated_card"


# --- the rulings --------------------------------------------------------------------------------

def test_b1_codes_are_the_62_cards():
    assert sorted(oc.CARDS) == sorted(R_CARDS)
    assert refused("kings", "KC KO K") == "combo_unknown_card"
    assert refused("kings", "KC KO 21") == "combo_unknown_card"


def test_b9_a_declaration_is_checked_exactly_as_given():
    # every given card is used: a card that cannot serve refuses the whole declaration
    assert refused("grande", "20 19 18 17 15") == "sequence_gap"
    assert check("grande", hand("20 19 18 17")).size == 4
    # less than it holds is allowed (the seat declares 20 19 18 while holding 17)
    assert check("grande", hand("20 19 18")).points == 10
    assert shrinkable(best("kings", hand("KC KO KS KB"))) == ["KC", "KO", "KS", "KB"]


def test_b10_cricche_points_and_no_wild_cards():
    assert items(best_all(hand("20 19 0 F"))) == [("tarocchi", 4, 36), ("grande", 4, 15)]
    assert items([best("tarocchi", hand("20 19 F KC"))]) == [("tarocchi", 3, 18)]
    for kind, rank, p in (("kings", "K", 17), ("queens", "Q", 14), ("cavalli", "H", 13), ("fanti", "M", 12)):
        assert check(kind, [rank + s for s in "COS"]).points == p
        assert check(kind, [rank + s for s in "COSB"]).points == 2 * p
        assert best(kind, [rank + "C", rank + "O", "F", "0"]) is None  # no wild cards
        assert refused(kind, f"{rank}C {rank}O F") == "cricca_no_contatore"
    assert refused("tarocchi", "20 19 18") == "not_in_cricca"
    assert refused("kings", "KC KO") == "cricca_size"


def test_b11_sequence_points_and_the_seven_sequences():
    assert [oc.sequence_points(n) for n in range(3, 8)] == [10, 15, 20, 25, 30]
    assert len(SEQUENCES) == 7
    assert check("moors", hand("1 2 3 4 0 F")).points == 25  # 4 real + 2 contatori = 6 cards
    assert refused("moors", "1 2") == "sequence_short"


def test_b12_contatori_serve_everywhere_at_once_never_for_the_20_or_a_king():
    pile = hand("20 19 F KC QC HC 1C KO MO 1O")
    assert items(best_all(pile)) == [("tarocchi", 3, 18), ("grande", 3, 10), ("cups", 5, 20),
                                     ("coins", 4, 15), ("aces", 3, 10)]
    assert all("F" in c.cards for c in best_all(pile))
    assert refused("grande", "19 18 F") == "contatore_head"
    assert refused("cups", "QC HC F") == "contatore_head"
    assert best("grande", hand("19 18 17 F 0")) is None and best("cups", hand("QC HC MC F 0")) is None
    assert refused("grande", "20 19 F F") == "combo_two_contatori"
    # a contatore simply added counts one card; the longest Grande is 18 cards, 85
    assert check("grande", hand("20 19 18 17 F")).size == 5
    assert best("grande", [str(n) for n in range(20, 4, -1)] + ["F", "0"]) == Combination(
        "grande", tuple(str(n) for n in range(20, 4, -1)) + ("0", "F"), 18, 85)


def test_b13_grande_head():
    assert refused("grande", "19 18 17 16") == "grande_needs_angelo"
    assert refused("grande", "20 F 0") == "grande_real_head"
    assert check("grande", hand("20 18 17")).size == 3  # 19 the one empty place
    assert check("grande", hand("20 17 F")).size == 3  # 19 or 18 filled, the other empty
    assert refused("grande", "20 17 16") == "head_gap"  # 19 and 18 both empty
    assert best("grande", hand("20 17 16 15")) is None
    assert refused("grande", "20 19") == "sequence_short"


def test_b14_grande_extension():
    assert check("grande", hand("20 19 18 17 F 15")).size == 6  # F fills 16
    assert refused("grande", "20 19 18 17 14 F 0") == "contatori_neighbours"  # 16 and 15
    assert refused("grande", "20 19 18 17 14 F") == "sequence_gap"
    assert check("grande", hand("20 19 18 17 F 15 0 13")).size == 8  # 16 and 14 filled
    assert check("grande", hand("20 19 F 0 15")).size == 5  # a head fill and 16: 17-16 allowed
    # the most literal reading: the head's empty 17 and a contatore at 16 (doubt in the module)
    assert check("grande", hand("20 19 18 F 15")).size == 5
    assert best("grande", hand("20 19 18 F 15 14")).size == 6
    # it stops at 5: never through the Moors or the 0
    run = [str(n) for n in range(20, 4, -1)] + ["1", "2", "3", "4"]
    assert items(best_all(run)) == [("grande", 16, 75), ("moors", 4, 15)]
    assert refused("grande", "20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4") == "not_in_sequence"
    with pytest.raises(ComboError) as e:
        check("grande", hand("20 19 18 17 14"))
    assert e.value.card == "14"


def test_b15_suit_sequence():
    assert check("swords", hand("KS QS HS MS 1S F 0")).points == 30  # no cap but the cards
    assert check("batons", hand("KB MB 1B F")).size == 4  # one of Q H filled, the other empty
    assert refused("cups", "QC HC MC") == "suit_needs_king"
    assert refused("cups", "KC QC HO") == "not_in_sequence"
    assert refused("cups", "KC QC HC 10C") == "not_in_sequence"  # pips are no part of it
    assert refused("coins", "KO 1O F") == "suit_real_head"
    assert best("coins", hand("KO HO 1O 6O 7O 8O 9O 10O")) is None


def test_b16_moors_and_aces():
    assert check("moors", hand("1 2 F")).points == 10
    assert refused("moors", "1 F 0") == "moors_two"
    assert refused("moors", "1 2 20") == "not_in_sequence"
    assert check("aces", hand("1C 1O 1S 1B 0 F")).size == 6
    assert refused("aces", "1C F 0") == "aces_two"
    assert refused("aces", "1C 1O") == "sequence_short"
    assert best("aces", hand("1C 0 F")) is None and best("moors", hand("1 0 F")) is None


def test_b17_sharing_and_one_per_kind():
    assert items(best_all(hand("1 2 F 3 4 0"))) == [("moors", 6, 25)]
    assert best("moors", hand("1 2 F 3 4 0")).size == 6  # one Moors sequence of 6, not two
    got = best_all(hand("20 19 18 0 KC QC HC 1C 1O 1S"))
    assert items(got) == [("tarocchi", 3, 18), ("grande", 4, 15), ("cups", 5, 20), ("aces", 4, 15)]
    assert "20" in got[0].cards and "20" in got[1].cards and "1C" in got[2].cards and "1C" in got[3].cards
    k = check("kings", hand("KC KO KS"))
    with pytest.raises(ComboError) as e:
        score([k, k])
    assert e.value.reason.id == "combo_one_per_kind"


def test_b18_doubling():
    three_cricche = [check("queens", hand("QC QO QS QB")), check("cavalli", hand("HC HO HS")),
                     check("fanti", hand("MC MO MS"))]
    assert score(three_cricche) == 106
    two = [check("kings", hand("KC KO KS")), check("queens", hand("QC QO QS"))]
    assert score(two) == 31
    seqs = [check("moors", hand("1 2 0")), check("aces", hand("1C 1O F")), check("cups", hand("KC QC HC"))]
    assert score(seqs) == 60
    assert score(seqs + two) == 60 + 31  # independently
    assert score(seqs[:2] + three_cricche) == 20 + 106
    assert score([check("kings", hand("KC KO KS KB"))]) == 34  # a four is one cricca


def test_b25_the_pile_is_one_set():
    pile = hand("20 19 0 F 18 17 1 2")  # the contatori in the tarocchi, the Grande and the Moors
    combos, total = pile_score(pile)
    assert items(combos) == [("tarocchi", 4, 36), ("grande", 6, 25), ("moors", 4, 15)]
    assert total == 36 + 25 + 15


# --- the hand-built cases ------------------------------------------------------------------------

@pytest.mark.parametrize("cards,size", [("20 19 17 16 15 F", 6), ("20 18 15 14 F 0", 6),
                                        ("20 19 18 17 14 13 12 F 0", 6), ("20 19 18 16 15", 5),
                                        ("20 19 F", 3), ("20 F 0", None)])
def test_o4_grande(cards, size):
    got = best("grande", hand(cards))
    if size is None:
        assert got is None
        return
    assert (got.size, got.points) == (size, oc.sequence_points(size))
    assert got.points != 40


def test_o4_exactly_as_given():
    assert check("grande", hand("20 18 15 14 F 0")).points == 25  # one in the head, one at 16
    assert refused("grande", "20 19 18 17 14 13 12 F 0") == "contatori_neighbours"  # not 40
    assert check("grande", hand("20 19 18 17 F 0")).points == 25  # what that hand declares
    assert check("grande", hand("20 19 18 16 15")).points == 20
    assert check("grande", hand("20 19 F")).points == 10
    assert refused("grande", "20 F 0") == "grande_real_head"


@pytest.mark.parametrize("cards,points", [("KC QC HC 1C", 15), ("KC QC 1C", None), ("KC QC 1C F", 15),
                                          ("KC F 0", None)])
def test_o5_suit(cards, points):
    got = best("cups", hand(cards))
    assert (got and got.points) == points if points else got is None
    if points:
        assert check("cups", hand(cards)).points == points


def test_o5_refusals():
    assert refused("cups", "KC QC 1C") == "head_gap"
    assert refused("cups", "KC F 0") == "suit_real_head"


def test_o6_doubling():
    assert score(best_all(hand("QC QO QS QB HC HO HS MC MO MS"))) == 106  # B27's seat 3
    assert score(best_all(hand("KC KO KS QC QO QS"))) == 31  # 17 + 14, not doubled


# --- B27 and O12 ------------------------------------------------------------------------------

SEAT_HANDS = {0: "20 19 18 F KC KO KS", 1: "1 2 3 0", 2: "", 3: "QC QO QS QB HC HO HS MC MO MS"}
PILE_A = hand("20 19 18 17 16 15 14 13 0 F KC KO KS KB QC HC MO 1C 1O 1S") + \
    [p + "C" for p in ("6", "7", "8", "9")] + [p + s for s in "OS" for p in ("6", "7", "8", "9", "10")]
PILE_B = hand("12 11 10 9 8 7 6 5 1 2 3 4 QO QS QB HO HS HB MC MS MB 10C 1B 6B 7B 8B 9B 10B")


def test_b27_declarations():
    assert items(best_all(hand(SEAT_HANDS[0]))) == [("tarocchi", 3, 18), ("kings", 3, 17), ("grande", 4, 15)]
    assert best("tarocchi", hand(SEAT_HANDS[0])).cards == ("20", "19", "F")
    assert best("grande", hand(SEAT_HANDS[0])).cards == ("20", "19", "18", "F")
    assert items(best_all(hand(SEAT_HANDS[1]))) == [("moors", 4, 15)]
    assert best_all([]) == []
    assert items(best_all(hand(SEAT_HANDS[3]))) == [("queens", 4, 28), ("cavalli", 3, 13), ("fanti", 3, 12)]
    assert [score(best_all(hand(SEAT_HANDS[s]))) for s in range(4)] == [50, 15, 0, 106]
    # the same declared card by card through check
    declared = [check("tarocchi", hand("20 19 F")), check("kings", hand("KC KO KS")),
                check("grande", hand("20 19 18 F"))]
    assert score(declared) == 50


def test_b27_pile_a():
    assert len(PILE_A) == 34 and "9S" in PILE_A and "10S" in PILE_A  # the discard (B8)
    combos, total = pile_score(PILE_A)
    assert items(combos) == [("tarocchi", 4, 36), ("kings", 4, 34), ("grande", 10, 45), ("cups", 6, 25),
                             ("coins", 5, 20), ("aces", 5, 20)]
    assert combos[2].cards == tuple(str(n) for n in range(20, 12, -1)) + ("0", "F")
    assert combos[3].cards == ("KC", "QC", "HC", "1C", "0", "F")
    assert combos[4].cards == ("KO", "MO", "1O", "0", "F")
    assert combos[5].cards == ("1C", "1O", "1S", "0", "F")
    assert score(combos[:2]) == 70 and score(combos[2:]) == 220
    assert total == 290


def test_b27_pile_b():
    assert len(PILE_B) == 28
    combos, total = pile_score(PILE_B)
    assert items(combos) == [("queens", 3, 14), ("cavalli", 3, 13), ("fanti", 3, 12), ("moors", 4, 15)]
    assert score(combos[:3]) == 78
    assert total == 93


def test_o12_full_hand():
    """B27's hand score; the card points (B4) are counted here only to close the sum."""
    def value(c):
        return 5 if c in ("20", "19", "0", "F") or c[0] == "K" and len(c) == 2 else \
            {"Q": 4, "H": 3, "M": 2}.get(c[0], 1) if len(c) == 2 and not c.isdigit() else 1
    cards_a = sum(map(value, PILE_A)) - len(PILE_A) // 2
    cards_b = sum(map(value, PILE_B)) - len(PILE_B) // 2
    assert (cards_a, cards_b) == (55, 32)
    declared_a = score(best_all(hand(SEAT_HANDS[0]))) + score(best_all(hand(SEAT_HANDS[2])))
    declared_b = score(best_all(hand(SEAT_HANDS[1]))) + score(best_all(hand(SEAT_HANDS[3])))
    assert (declared_a, declared_b) == (50, 121)
    assert declared_a + pile_score(PILE_A)[1] + cards_a + 6 == 401
    assert declared_b + pile_score(PILE_B)[1] + cards_b == 246


# --- refusals -----------------------------------------------------------------------------------

REFUSALS = [
    ("royals", "KC KO KS", "combo_unknown_kind"),
    ("kings", "KC KO KX", "combo_unknown_card"),
    ("kings", "KC KC KO", "combo_repeated_card"),
    ("grande", "20 19 F F", "combo_two_contatori"),
    ("moors", "1 2 0 0", "combo_two_contatori"),
    ("kings", "KC KO", "cricca_size"),
    ("tarocchi", "20 19", "cricca_size"),
    ("kings", "", "cricca_size"),
    ("kings", "KC KO KS F", "cricca_no_contatore"),
    ("queens", "QC QO 0", "cricca_no_contatore"),
    ("kings", "KC KO QS", "not_in_cricca"),
    ("tarocchi", "20 19 18", "not_in_cricca"),
    ("grande", "20 19 18 KC", "not_in_sequence"),
    ("grande", "20 19 18 1", "not_in_sequence"),
    ("cups", "KC QC HO", "not_in_sequence"),
    ("cups", "KC QC HC 10C", "not_in_sequence"),
    ("moors", "1 2 20", "not_in_sequence"),
    ("aces", "1C 1O KC", "not_in_sequence"),
    ("grande", "20 19", "sequence_short"),
    ("cups", "KC QC", "sequence_short"),
    ("moors", "1 2", "sequence_short"),
    ("aces", "1C 1O", "sequence_short"),
    ("grande", "19 18 F", "contatore_head"),
    ("swords", "F QS HS", "contatore_head"),
    ("grande", "19 18 17", "grande_needs_angelo"),
    ("grande", "", "grande_needs_angelo"),
    ("batons", "QB HB MB", "suit_needs_king"),
    ("grande", "20 F 0", "grande_real_head"),
    ("grande", "20 16 15 F", "grande_real_head"),
    ("cups", "KC F 0", "suit_real_head"),
    ("cups", "KC 1C F", "suit_real_head"),
    ("cups", "KC QC 1C", "head_gap"),
    ("grande", "20 17 16", "head_gap"),
    ("grande", "20 18 15 F", "sequence_gap"),  # F fills the head's second empty place; 16 missing
    ("grande", "20 19 18 17 15", "sequence_gap"),
    ("grande", "20 19 18 17 14 F", "sequence_gap"),
    ("grande", "20 19 18 17 15 13 F", "sequence_gap"),
    ("grande", "20 19 18 17 14 13 12 F 0", "contatori_neighbours"),
    ("grande", "20 19 18 17 16 13 F 0", "contatori_neighbours"),
    ("grande", "20 19 18 17 13 F 0", "sequence_gap"),
    ("grande", "20 19 18 17 15 14 12 11 9 F 0", "sequence_gap"),  # three gaps, two contatori
    ("grande", "20 19 18 17 5 F 0", "sequence_gap"),
    ("moors", "1 F 0", "moors_two"),
    ("aces", "1C F 0", "aces_two"),
]


@pytest.mark.parametrize("kind,cards,reason", REFUSALS)
def test_check_refuses_with_the_right_reason(kind, cards, reason):
    assert refused(kind, cards) == reason
    assert not r_valid(kind, frozenset(cards.split())) or reason.startswith("combo_")


def test_every_reason_is_exercised():
    ids = {r for _, _, r in REFUSALS} | {"combo_one_per_kind"}
    assert ids == {r.id for r in REASONS}
