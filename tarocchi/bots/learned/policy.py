"""The ``learned`` level: a small network, trained on the teacher's decisions, plays the cards.

A card's score is ``V[c]·h + b[c] + φ(c)·(U h + u)``, ``h = relu(W x + w)``: ``x`` the state
(``features.Featurizer.encode``), ``φ(c)`` the card's own features (the rule bot's card among
them: the network learns where the expert leaves it); the best-scored legal card is played.
Where a game has an auction model too (``weights/<game>-<seats>-speak.npz``: the same network
over ``features.WordFeaturizer``, a word's own feature whether the rule bot says it), it speaks
the best-scored word the teacher ever said; a word it never said (a ``prendo`` that takes up a
human's ``pago``) is left to the rule bot, as are the phases between the auction and the cards
(the calls, the discards, declarations). Numpy alone, about 0.2-0.5 ms of CPU a decision; in
the last tricks (``ENDGAME_CARDS``) the game's expert search weighs the network's card over a
few worlds solved exactly and plays another where it is confident of it (a few ms there).

The weights are shipped in the package (``weights/<game>-<seats>.npz``). A model missing or
damaged is said once in the log, and the player plays as the game's ``search`` level instead:
a table never stops for it. An auction model is optional: where none is shipped the rule bot
speaks; a damaged one is said in the log and the rule bot speaks.
"""

from __future__ import annotations

import json
import logging
import os
import random
from functools import lru_cache

import numpy as np

from .features import CARD_FEATURES, featurizer

log = logging.getLogger("tarocchi.bots.learned")

WEIGHTS = os.path.join(os.path.dirname(__file__), "weights")
PHASES = frozenset({"play"})
ARRAYS = ("W", "w", "V", "b", "U", "u")
# The last tricks are searched: once its hand times the seats is this few cards (four tricks
# at three seats, three at four), the learned player keeps its network's card unless the game's
# expert search, over a few worlds each solved exactly, is confident of a better one
# (``Expert.endgame``; docs/benchmarks.md, "The last tricks searched": a few ms of CPU there).
ENDGAME_CARDS = 12
ENDGAME_WORLDS = 6
ENDGAME_NODES = 2_000  # positions a world's solve may visit before it is played out instead


def weights_path(game: str, seats: int, phase: str = "play") -> str:
    return os.path.join(WEIGHTS, f"{game}-{seats}.npz" if phase == "play" else f"{game}-{seats}-{phase}.npz")


class Model:
    """The network's arrays and its featurizer (the cards', or the auction's: ``meta["phase"]``)."""

    def __init__(self, arrays: dict, meta: dict):
        self.W, self.w, self.V, self.b, self.U, self.u = (np.asarray(arrays[k], dtype=np.float32) for k in ARRAYS)
        self.meta = meta
        self.features = featurizer(meta)
        d, h = self.W.shape[1], self.W.shape[0]
        if (d != self.features.size or self.w.shape != (h,) or self.V.shape != (self.features.n, h)
                or self.b.shape != (self.features.n,) or self.U.shape != (CARD_FEATURES, h)
                or self.u.shape != (CARD_FEATURES,)):
            raise ValueError("the arrays do not fit the features")
        for k in ARRAYS:
            if not np.all(np.isfinite(getattr(self, k))):
                raise ValueError(f"{k} is not finite")

    def scores(self, view: dict, legal: list[int], rule: int = -1) -> np.ndarray:
        """The legal options' scores (cards, or words); ``rule``: the rule bot's for this view."""
        x, ctx = self.features.encode(view)
        ctx["rule"] = rule
        h = np.maximum(self.W @ x + self.w, 0.0)
        phi = np.stack([self.features.card_features(c, ctx) for c in legal])
        return self.V[legal] @ h + self.b[legal] + phi @ (self.U @ h + self.u)

    def save(self, path: str) -> None:
        np.savez_compressed(path, meta=np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8),
                            **{k: getattr(self, k).astype(np.float16) for k in ARRAYS})


def load(path: str) -> Model:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z["meta"]).decode())
        return Model({k: z[k] for k in ARRAYS}, meta)


@lru_cache(maxsize=None)
def shipped(game: str, seats: int, phase: str = "play") -> Model | None:
    """The shipped model of ``game`` at ``seats`` (for the cards, or ``phase`` speak: the
    auction), or None, said in the log when it is damaged, or missing for the cards (an auction
    model is optional)."""
    path = weights_path(game, seats, phase)
    if phase != "play" and not os.path.exists(path):
        return None
    try:
        model = load(path)
        if (model.meta["game"], model.meta["seats"], model.meta.get("phase", "play")) != (game, seats, phase):
            raise ValueError(f"a model of {model.meta['game']} at {model.meta['seats']} seats, "
                             f"phase {model.meta.get('phase', 'play')}")
        return model
    except Exception as e:  # a missing or damaged file: any failure to read it
        if phase == "play":
            log.warning("learned player: no usable model for %s at %d seats (%s: %s); playing as search instead",
                        game, seats, type(e).__name__, e)
        else:
            log.warning("learned player: no usable %s model for %s at %d seats (%s: %s); the rule bot speaks instead",
                        phase, game, seats, type(e).__name__, e)
        return None


def card_of(action: str) -> str:
    """The card an action plays (Ottocento's signals follow the card: ``7C busso``)."""
    return action.split(" ", 1)[0]


def plain_cards(view: dict) -> list[str]:
    """The cards the view allows played plain, with no signal (Ottocento's ``7C busso`` left out)."""
    return [c["action"] for c in view["choices"] if c["reason"] is None and " " not in c["action"]]


class LearnedBot:
    """The learned policy for the cards (and the auction, where a model of it is shipped), the
    rule bot elsewhere; ``search`` when the cards' model is missing or damaged. Subclassed per
    game (``game``)."""

    game = ""

    def __init__(self, seed: int | None = None, endgame: bool = True):
        from .. import GAME_RULES  # noqa: the package's table of each game's bots

        self.seed = seed
        self.endgame_cards = ENDGAME_CARDS if endgame else 0  # 0: the network alone (the duel's ``learned-1``)
        self.rng = random.Random(seed)
        rule, search = GAME_RULES[self.game]
        self.rule = rule(seed=seed)
        self.search_class = search
        self.fallback = None
        self.searcher = None  # the game's expert, for the last tricks (``endgame``), made when first needed

    def model(self, seats: int) -> Model | None:
        return shipped(self.game, seats)

    def speaker(self, seats: int) -> Model | None:
        return shipped(self.game, seats, "speak")

    def __call__(self, view: dict) -> str:
        model = self.model(view["seats"])
        if model is None:
            if self.fallback is None:
                self.fallback = self.search_class(seed=self.seed)
            return self.fallback(view)
        if view["phase"] == "speak":
            return self.word(view)
        card = self.card(view)
        if card is None:
            return self.rule(view)
        return self.played(view, self.endgame(view, card))

    def endgame(self, view: dict, card: str) -> str:
        """The network's ``card``, or in the last tricks (``ENDGAME_CARDS``) a card the expert
        search is confident is better (``Expert.endgame``). Only what the view shows is read:
        the worlds are the expert's, drawn from this seat's knowledge."""
        plain = plain_cards(view)
        if len(view["hand"]) * view["seats"] > self.endgame_cards or len(plain) < 2:
            return card
        if self.searcher is None:
            from .. import levels_for  # noqa: the package's levels (the expert imports this module)

            self.searcher = levels_for(self.game)["expert"](seed=self.seed, time_limit=None)
        return self.searcher.endgame(view, plain, card, ENDGAME_WORLDS, ENDGAME_NODES)

    def played(self, view: dict, card: str) -> str:
        """The action that plays the model's ``card``: the card itself (Ottocento's adds a signal)."""
        return card

    def card(self, view: dict, margin: float = 0.0, said: str | None = None) -> str | None:
        """The model's card (with no signal) in the play phase; None where it has no say: no
        model is shipped, another phase, only signalled cards are allowed, or (``margin``) it
        scores the rule bot's card less than ``margin`` below its own. ``said``: the rule bot's
        action for this view, where the caller has it already. The expert reads the card as the
        one its search must beat (issue 43, part 3)."""
        model = self.model(view["seats"])
        if model is None or view["phase"] not in PHASES:
            return None
        plain = plain_cards(view)
        if not plain:
            return None
        codes = model.features.codes
        said = card_of(self.rule(view) if said is None else said)
        s = model.scores(view, [codes[a] for a in plain], codes.get(said, -1))
        best = int(np.argmax(s))
        if margin and said in plain and s[best] - s[plain.index(said)] < margin:
            return None
        return plain[best]

    def word(self, view: dict) -> str:
        """The auction's word: the auction model's likeliest (``word_chances``), else the rule bot's."""
        said = self.rule(view)
        chances = self.word_chances(view, said)
        return max(chances, key=chances.__getitem__) if chances else said

    def word_chances(self, view: dict, said: str) -> dict[str, float] | None:
        """The auction model's chance of each allowed word the teacher ever said (a softmax of
        its scores), ``said`` the rule bot's word; None where the model has no say: none is
        shipped, fewer than two such words are allowed, or ``said`` is not one of them (the
        teacher never took up a pago: a free jocu, R6), which is then the rule bot's to say.
        The expert reads these chances as its model of the other seats' words (issue 43)."""
        speaker = self.speaker(view["seats"])
        if speaker is None:
            return None
        words = speaker.features.codes
        if said not in words:
            return None
        known = [c["action"] for c in view["choices"] if c["reason"] is None and c["action"] in words]
        if len(known) < 2:
            return None
        s = speaker.scores(view, [words[a] for a in known], words[said])
        e = np.exp(s - s.max())
        return dict(zip(known, (e / e.sum()).tolist()))


class SicilianLearned(LearnedBot):
    game = "sicilian"


class CalabresellaLearned(LearnedBot):
    game = "calabresella"


class RenaissanceLearned(LearnedBot):
    game = "renaissance"


class OttocentoLearned(LearnedBot):
    game = "ottocento"

    def played(self, view: dict, card: str) -> str:
        # B22: on a lead the network's card carries the rule bot's signal, as search's does (the
        # network was taught by search, whose partner signalled); a human partner reads it.
        return self.rule.signalled(view, card)


LEARNED = {"sicilian": SicilianLearned, "calabresella": CalabresellaLearned,
           "renaissance": RenaissanceLearned, "ottocento": OttocentoLearned}
