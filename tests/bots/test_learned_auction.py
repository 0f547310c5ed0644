"""The learned auction (issue 43): the trainer's ``--phase speak``, the model it writes, the
learned player's words (only legal ones, the rule bot's where the teacher never said its word),
a damaged auction model that leaves the words to the rule bot, and the swap test in the auction."""

from __future__ import annotations

import json
import logging
import random
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarocchi.bots import GAME_RULES, make_player
from tarocchi.bots.learned import policy, train
from tarocchi.bots.learned.selfplay import decisions, read_records, run
from tarocchi.engine.game import get_game
from tarocchi.engine.playout import random_action

from .test_learned import SPEAKERS, codes_in

GAME, SEATS = "sicilian", 3


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Six deals of the rule bot's play as records, and the models the trainer fits to them: the
    auction's and the cards'."""
    where = tmp_path_factory.mktemp("trained")
    data = str(where / "r.jsonl")
    run(GAME, SEATS, 6, seed=11, out=data, teacher_name="rule", quiet=True)
    speak, cards = str(where / "speak.npz"), str(where / "cards.npz")
    common = ["--game", GAME, "--epochs", "2", "--hidden", "8", "--swaps", "2", "--holdout-every", "3"]
    assert train.main([data, *common, "--phase", "speak", "--out", speak]) == 0
    assert train.main([data, *common, "--out", cards]) == 0
    return {"data": data, "speak": speak, "cards": cards}


def test_the_trainer_goes_on_from_a_models_weights(trained, tmp_path):
    """``--init``: a model's own features, vocabulary and width, its weights the start (no
    epoch: the same arrays); a model of another phase is refused."""
    common = ["--game", GAME, "--swaps", "1", "--holdout-every", "3", "--hidden", "16"]
    for phase, start in (("play", trained["cards"]), ("speak", trained["speak"])):
        out = str(tmp_path / f"{phase}.npz")
        assert train.main([trained["data"], *common, "--phase", phase, "--init", start, "--epochs", "0",
                           "--out", out]) == 0
        before, after = policy.load(start), policy.load(out)
        assert after.meta["hidden"] == 8 and after.meta["init"]["teacher"] == "rule"
        assert all(np.array_equal(getattr(before, k), getattr(after, k)) for k in policy.ARRAYS)
        assert {k: v for k, v in after.meta.items() if k in ("words", "contracts")} == \
            {k: v for k, v in before.meta.items() if k in ("words", "contracts")}
        assert train.main([trained["data"], *common, "--phase", phase, "--init", start, "--epochs", "1",
                           "--out", out]) == 0
        assert policy.load(out).W.shape == before.W.shape
    assert train.main([trained["data"], *common, "--init", trained["speak"], "--out", str(tmp_path / "x.npz")]) == 2


def with_speaker(model):
    """The learned player of Sicilian with ``model`` for its words."""
    return type("WithSpeaker", (policy.SicilianLearned,), {"speaker": lambda self, seats: model})


def test_the_trainer_writes_an_auction_model_over_the_teachers_words(trained):
    speak = policy.load(trained["speak"])
    said = {a for r in read_records(trained["data"]) for _, a in decisions(r, frozenset({"speak"}))}
    assert speak.meta["phase"] == "speak" and speak.meta["words"] == sorted(said)
    assert "pago" not in said  # (the rule bot never says it: the model has no such word)
    assert speak.V.shape[0] == len(said) and speak.W.shape[1] == speak.features.size
    cards = policy.load(trained["cards"])  # the cards' model, from the same trainer
    assert cards.meta["phase"] == "play" and cards.V.shape[0] == get_game(GAME).deck.size


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_learned_auction_says_only_legal_words(trained, seed):
    player = with_speaker(policy.load(trained["speak"]))(seed=seed)
    rules = get_game(GAME)
    rng = random.Random(seed)
    deal = rules.new_deal(SEATS, rng.randrange(SEATS), rules.deck.shuffled(rng), log=False)
    while not deal.done and deal.phase == "speak":
        s = deal.to_act
        view = deal.view(s)
        word = player(view)
        assert word in {c["action"] for c in view["choices"] if c["reason"] is None}
        deal.apply(word, s)


def test_the_word_said_is_the_likeliest_of_the_auction_models_chances(trained):
    """``word_chances`` (the expert's model of the other seats' words, issue 43) is a
    distribution over the allowed words the teacher said, and the learned player says its
    likeliest; where it has no say (one such word or none) the rule bot's word is said."""
    player = with_speaker(policy.load(trained["speak"]))(seed=1)
    rules = get_game(GAME)
    spoke = 0
    for seed in range(20):
        rng = random.Random(seed)
        deal = rules.new_deal(SEATS, seed % SEATS, rules.deck.shuffled(rng), log=False)
        while deal.phase == "speak":
            view = deal.view(deal.to_act)
            said = player.rule(view)
            chances = player.word_chances(view, said)
            word = player(view)
            if chances is None:
                assert word == said
            else:
                allowed = {c["action"] for c in view["choices"] if c["reason"] is None}
                assert set(chances) <= allowed and len(chances) >= 2 and said in chances
                assert sum(chances.values()) == pytest.approx(1.0) and min(chances.values()) > 0
                assert word == max(chances, key=chances.__getitem__)
                spoke += 1
            deal.apply(random_action(deal, rng), deal.to_act)
    assert spoke >= 10


def test_a_word_the_teacher_never_said_is_the_rule_bots(trained):
    """A person says pago (R5, R6); the next seat's rule bot takes the jocu with prendo, a word
    the teacher never said: the learned player says it too."""
    player = with_speaker(policy.load(trained["speak"]))(seed=0)
    rules = get_game(GAME)
    rule = GAME_RULES[GAME][0](seed=0)
    for seed in range(200):
        deal = rules.new_deal(SEATS, 0, rules.deck.shuffled(random.Random(seed)), log=False)
        for _ in range(SEATS):  # the first round: everyone wants five more
            deal.apply("altre cinque", deal.to_act)
        deal.apply("pago", deal.to_act)
        view = deal.view(deal.to_act)
        if rule(view) == "prendo":
            assert player(view) == "prendo"
            return
    pytest.fail("no deal where the rule bot takes up a pago")


@pytest.fixture
def weights(tmp_path, monkeypatch):
    """A weights folder of its own, with Sicilian's cards model alone at first (the shipped
    models' cache cleared before and after)."""
    shutil.copy(policy.weights_path(GAME, SEATS), tmp_path)
    monkeypatch.setattr(policy, "WEIGHTS", str(tmp_path))
    policy.shipped.cache_clear()
    yield tmp_path
    policy.shipped.cache_clear()


def first_word(seed: int) -> tuple:
    """The learned player's first word of a deal, the rule bot's, and the player."""
    player = make_player("learned", seed=seed, game=GAME)
    rules = get_game(GAME)
    deal = rules.new_deal(SEATS, seed % SEATS, rules.deck.shuffled(random.Random(seed)), log=False)
    view = deal.view(deal.to_act)
    assert view["phase"] == "speak"
    return player(view), GAME_RULES[GAME][0](seed=seed)(view), player


@pytest.mark.parametrize("damage", ["garbage", "a model of the cards"])
def test_a_damaged_auction_model_leaves_the_words_to_the_rule_bot(damage, weights, caplog, trained):
    speak = weights / f"{GAME}-{SEATS}-speak.npz"
    if damage == "garbage":
        speak.write_bytes(b"not a model at all")
    else:
        shutil.copy(trained["cards"], speak)
    with caplog.at_level(logging.WARNING, logger="tarocchi.bots.learned"):
        word, rule_word, player = first_word(5)
    assert word == rule_word
    assert player.fallback is None  # the cards are still the learned model's
    assert "the rule bot speaks instead" in caplog.text


def test_no_auction_model_shipped_leaves_the_words_to_the_rule_bot_silently(weights, caplog):
    with caplog.at_level(logging.WARNING, logger="tarocchi.bots.learned"):
        word, rule_word, player = first_word(6)
    assert word == rule_word and player.fallback is None and caplog.text == ""


def test_the_auction_features_read_the_rounds_and_who_spoke(trained):
    """This round's words (said holding as many cards as I do) apart from the rounds before,
    each seat counted from me."""
    feats = policy.load(trained["speak"]).features
    rules = get_game(GAME)
    deal = rules.new_deal(SEATS, 2, rules.deck.shuffled(random.Random(3)), log=False)
    for _ in range(SEATS):
        deal.apply("altre cinque", deal.to_act)
    deal.apply("passo", deal.to_act)  # seat 0, ten cards
    view = deal.view(deal.to_act)  # seat 1
    x, _ = feats.encode(view)
    heard = feats.heard
    now = x[feats.o_now:feats.o_before].reshape(SEATS, heard)
    before = x[feats.o_before:feats.o_shape].reshape(SEATS, heard)
    passo, altre = feats.heard_index("passo"), feats.heard_index("altre cinque")
    assert now[SEATS - 1, passo] == 1 and now.sum() == 1  # seat 0 is the one before me
    assert np.allclose(before[:, altre], 1 / 3) and before.sum() == pytest.approx(1.0)
    assert x[feats.o_size + 10] == 1 and x[feats.o_place + 1] == 1  # ten cards; the second to speak
    assert x[:feats.deck.size].sum() == 10


@pytest.mark.parametrize(("game", "seats"), SPEAKERS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 8), pick=st.integers(0, 2**32 - 1))
def test_the_swap_test_in_the_auction(game, seats, seed, steps, pick):
    """Two deals alike in all that the speaking seat knows and different in two cards hidden
    from it (another's hand, the cards still to come, the monte): the same word."""
    rules = get_game(game)
    rng = random.Random(seed)
    dealer = rng.randrange(seats)
    order = rules.deck.shuffled(rng)
    deal = rules.new_deal(seats, dealer, order, log=False)
    actions = []
    for _ in range(steps):
        if deal.phase != "speak":
            break
        seat = deal.to_act
        a = rules.action_text(random_action(deal, rng))
        actions.append((seat, a))
        deal.apply(a, seat)
    if deal.done or deal.phase != "speak":
        return
    me = deal.to_act
    view = deal.view(me)
    hidden = sorted(set(rules.deck.codes) - codes_in(view, set(rules.deck.codes)))
    pairs = [(a, b) for a in hidden for b in hidden if a < b]
    a, b = random.Random(pick).choice(pairs)
    ia, ib = rules.deck.card(a), rules.deck.card(b)
    other = rules.new_deal(seats, dealer, [ib if c == ia else ia if c == ib else c for c in order], log=False)
    for seat, act in actions:
        other.apply(act, seat)  # (words are legal whatever the hidden cards)
    other_view = other.view(me)
    assert other_view["hand"] == view["hand"]
    first = make_player("learned", seed=3, game=game)(view)
    assert first == make_player("learned", seed=3, game=game)(other_view), (a, b)
    assert json.dumps(view, sort_keys=True) == json.dumps(other_view, sort_keys=True)
