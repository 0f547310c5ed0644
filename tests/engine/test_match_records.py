"""Match records (docs/records.md "Match records"): a whole match on one line, replayed deal by
deal; and the corpus of every game's records, which must replay to the counts printed when it
was written (tests/engine/corpus/README.md)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tarocchi.cli import main as cli_main
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.match import Match
from tarocchi.engine.playout import random_action
from tarocchi.engine.records import RecordError, is_match, match_record, replay_match

CORPUS = Path(__file__).parent / "corpus"


def played_match(game: str, seats: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.drawn(seats, rng, game=game)
    while not match.over:
        deal = match.start_deal(rng)
        while not deal.done:
            deal.apply(random_action(deal.copy(), rng))
    return match


@pytest.mark.parametrize("game", game_names())
def test_a_match_record_replays_to_the_same_match(game):
    for seed in range(3):
        match = played_match(game, get_game(game).seats[0], seed)
        record = json.loads(json.dumps(match_record(match)))
        assert is_match(record)
        again = replay_match(record)
        assert again.over and len(again.deals) == len(match.deals)
        assert again.totals == match.totals == record["result"]["totals"]
        assert again.winners() == match.winners() == record["result"]["winners"]


def test_a_match_to_21_ends_on_the_deal_that_takes_a_seat_to_21_C21():
    for seed in range(10):
        match = played_match("calabresella", 3, seed)
        totals = [0, 0, 0]
        for k, deal in enumerate(match.deals):
            assert max(totals) < 21, "no deal is dealt once a seat has 21"
            totals = [t + p for t, p in zip(totals, deal.returns())]
        assert max(totals) >= 21 and totals == match.totals


def test_a_deal_after_the_match_was_decided_is_refused_C21():
    match = played_match("calabresella", 3, 1)
    record = match_record(match)
    extra = played_match("calabresella", 3, 2).deals[0].record()
    record["deals"].append({"dealer": match.dealer_of(len(match.deals)), "deck": extra["deck"],
                            "actions": extra["actions"]})
    with pytest.raises(RecordError, match=f"deal {len(match.deals)}: the match was already decided"):
        replay_match(record)


def test_a_match_record_checks_each_dealer_and_each_deal():
    match = played_match("renaissance", 3, 4)
    record = match_record(match)
    wrong = copy.deepcopy(record)
    wrong["deals"][1]["dealer"] = (wrong["deals"][1]["dealer"] + 1) % 3
    with pytest.raises(RecordError, match="deal 1: the dealer is seat"):
        replay_match(wrong)
    short = copy.deepcopy(record)
    del short["deals"][0]["actions"][-1]
    with pytest.raises(RecordError, match="deal 0: the deal is not finished, yet another follows"):
        replay_match(short)
    bad = copy.deepcopy(record)
    bad["deals"][2]["actions"][0]["seat"] = (bad["deals"][2]["actions"][0]["seat"] + 1) % 3
    with pytest.raises(RecordError, match="deal 2: action 0"):
        replay_match(bad)
    with pytest.raises(RecordError, match="a match record"):
        replay_match({**record, "deals": "none"})
    with pytest.raises(RecordError, match="unknown game"):
        replay_match({**record, "game": "chess"})


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.jsonl") if not p.name.endswith(".counts.jsonl"))


def test_the_corpus_holds_every_game():
    names = {p.name.split("-")[0].removesuffix(".jsonl") for p in corpus_files()}
    assert {"renaissance", "calabresella", "sicilian"} <= names  # Sicilian's deals: tests/engine/legacy
    assert any(p.name.endswith("-matches.jsonl") for p in corpus_files())


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_every_games_records_replay_to_the_counts_printed_when_they_were_written(path, capsys):
    assert cli_main(["replay", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    expected = path.with_name(path.name.removesuffix(".jsonl") + ".counts.jsonl").read_text().splitlines()
    assert len(printed) == len(expected) > 0
    for got, want in zip(printed, expected):
        assert json.loads(got) == json.loads(want)


def test_simulate_matches_then_replay_from_the_command_line(tmp_path):
    out = tmp_path / "m.jsonl"
    run = [sys.executable, "-m", "tarocchi.cli"]
    subprocess.run(run + ["simulate", "--game", "calabresella", "--matches", "2", "--seed", "9",
                          "--out", str(out)], check=True)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 2 and all(r["result"]["over"] for r in lines)
    done = subprocess.run(run + ["replay", str(out)], capture_output=True, text=True, check=True)
    results = [json.loads(x) for x in done.stdout.splitlines()]
    assert [r["totals"] for r in results] == [r["result"]["totals"] for r in lines]
    assert all(max(r["totals"]) >= 21 for r in results)
