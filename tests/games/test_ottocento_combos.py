"""Ottocento's combinations (tarocchi.games.ottocento_combos): the rulings B10-B18 and B25, the
hand-built cases O4-O6 and B27's declarations and piles (shared/rules/OTTOCENTO.md)."""

from __future__ import annotations

from tarocchi.games.ottocento_combos import best_all, pile_score, score


def kinds(cards: str):
    return [(c.kind, c.size, c.points) for c in best_all(cards.split())]


def test_b27_declarations():
    assert score(best_all("20 19 18 F KC KO KS".split())) == 50
    assert score(best_all("1 2 3 0".split())) == 15
    assert score(best_all("QC QO QS QB HC HO HS MC MO MS".split())) == 106
