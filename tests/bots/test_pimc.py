"""The search's shared pieces (``bots.pimc``, ``bots.worlds``): what play shows of a seat's
hand, for any game's deck, and the loop that a game's knowledge plugs into."""

from __future__ import annotations

import pickle

from tarocchi.bots.pimc import PIMC
from tarocchi.bots.renaissance.search_bot import RenaissanceSearchBot
from tarocchi.bots.worlds import voids
from tarocchi.engine.game import get_game
from tarocchi.games.renaissance import DECK as RENAISSANCE


def plays(deck, trick_cards: list[tuple[int, str]]) -> list[tuple[int, int]]:
    return [(seat, deck.card(code)) for seat, code in trick_cards]


def test_not_following_shows_a_void_and_not_trumping_shows_no_trumps_either():
    deck = get_game("sicilian").deck
    # Swords led by seat 0: seat 1 trumps (void in swords), seat 2 throws a cup (void in both).
    shown = voids(plays(deck, [(0, "7S"), (1, "3"), (2, "5C")]), deck, 3)
    assert shown[0] == 0
    assert shown[1] == deck.suit_mask_of[deck.card("7S")]
    assert shown[2] == deck.suit_mask_of[deck.card("7S")] | deck.trumps


def test_a_led_fool_lets_the_next_card_fix_the_suit_and_the_fool_shows_nothing():
    """A11: after a led Fool the second card fixes what the third must follow."""
    shown = voids(plays(RENAISSANCE, [(0, "F"), (1, "9S"), (2, "KC"),
                                      (2, "5B"), (0, "4B"), (1, "21")]), RENAISSANCE, 3)
    swords, wands = RENAISSANCE.suit_mask_of[RENAISSANCE.card("9S")], RENAISSANCE.suit_mask_of[RENAISSANCE.card("5B")]
    assert shown == [0, wands, swords | RENAISSANCE.trumps]


def test_a_game_plugs_its_knowledge_into_the_loop_and_the_player_pickles():
    bot = RenaissanceSearchBot(seed=3, worlds=2, time_limit=None)
    assert isinstance(bot, PIMC) and bot.game == "renaissance" and bot.phases == ("play",)
    again = pickle.loads(pickle.dumps(bot))
    assert again.seed == 3 and again.worlds == 2
