"""The ``tarocchi`` command line, run as a real process: simulate and replay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def tarocchi(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tarocchi.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("seats", [3, 4])
def test_simulate_writes_n_records_deterministic_for_a_seed(seats):
    first = tarocchi("simulate", "--seats", str(seats), "--deals", "5", "--seed", "7")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 5
    for line in lines:
        r = json.loads(line)
        assert r["game"] == "sicilian" and r["seats"] == seats and len(r["deck"]) == 63
        assert r["actions"] and all(set(a) == {"seat", "action"} for a in r["actions"])
    assert tarocchi("simulate", "--seats", str(seats), "--deals", "5", "--seed", "7").stdout == first.stdout
    assert tarocchi("simulate", "--seats", str(seats), "--deals", "5", "--seed", "8").stdout != first.stdout


def test_simulate_to_a_file_and_replay_it(tmp_path):
    out = tmp_path / "deals.jsonl"
    assert tarocchi("simulate", "--seats", "4", "--deals", "6", "--seed", "2", "--out", str(out)).returncode == 0
    done = tarocchi("replay", str(out))
    assert done.returncode == 0, done.stderr
    counts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [c["record"] for c in counts] == [1, 2, 3, 4, 5, 6]
    for c in counts:
        assert len(c["payments"]) == 4 and all(isinstance(p, int) for p in c["payments"])
        assert sum(c["payments"]) == 0
        assert "jochi" in c or c["abandoned"]


def test_replay_reads_stdin_with_a_dash():
    records = tarocchi("simulate", "--seats", "3", "--deals", "4", "--seed", "3").stdout
    done = tarocchi("replay", "-", stdin=records)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 4
    assert all(len(json.loads(line)["payments"]) == 3 for line in done.stdout.splitlines())


def test_throw_in_option_is_recorded():
    out = tarocchi("simulate", "--seats", "4", "--deals", "2", "--seed", "1", "--throw-in").stdout
    assert all(json.loads(line)["options"] == {"forced_call": False} for line in out.splitlines())


def simulated(n: int = 3) -> list[dict]:
    out = tarocchi("simulate", "--seats", "3", "--deals", str(n), "--seed", "5").stdout
    return [json.loads(line) for line in out.splitlines()]


def test_replay_stops_at_an_illegal_action_naming_record_index_and_why():
    records = simulated()
    bad = records[1]
    bad["actions"][2]["seat"] = (bad["actions"][2]["seat"] + 1) % 3
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    done = tarocchi("replay", "-", stdin=text)
    assert done.returncode != 0
    assert len(done.stdout.splitlines()) == 1  # the first record's count came out
    assert "record 2" in done.stderr and "action 2" in done.stderr
    assert "it is not your turn" in done.stderr


def test_replay_refuses_an_unknown_card_code():
    records = simulated(1)
    records[0]["actions"][-1]["action"] = "ZZ"
    done = tarocchi("replay", "-", stdin=json.dumps(records[0]))
    assert done.returncode != 0
    assert f"action {len(records[0]['actions']) - 1}" in done.stderr and "'ZZ' is not an action" in done.stderr


@pytest.mark.parametrize("line, why", [
    ("{not json", "is not JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ('{"game": "sicilian"}', "a record needs"),
])
def test_replay_refuses_a_malformed_record(line, why):
    done = tarocchi("replay", "-", stdin=line + "\n")
    assert done.returncode != 0 and why in done.stderr
    assert "record 1" in done.stderr or "line 1" in done.stderr


def test_replay_refuses_an_unfinished_deal():
    r = simulated(1)[0]
    r["actions"] = r["actions"][:2]
    done = tarocchi("replay", "-", stdin=json.dumps(r))
    assert done.returncode != 0 and "record 1" in done.stderr and "not finished" in done.stderr


def test_replay_of_a_missing_file_says_so():
    done = tarocchi("replay", "/nonexistent/deals.jsonl")
    assert done.returncode != 0 and "No such file" in done.stderr


def one_line_refusal(done: subprocess.CompletedProcess, why: str) -> None:
    """The usual refusal: status 1, one line on stderr naming the problem, no traceback."""
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("tarocchi replay: ") and why in done.stderr, done.stderr


@pytest.mark.parametrize("line, why", [
    ('{"seats": ' + "1" * 4301 + "}", "line 1 is not a record: it holds a number of more than 4300 digits"),
    ("[" * 1500 + "]" * 1500, "line 1 is not a record: it is nested too deeply"),
])
def test_replay_refuses_numbers_and_nesting_json_cannot_read_in_one_line(line, why):
    one_line_refusal(tarocchi("replay", "-", stdin=line + "\n"), why)


def test_replay_names_a_card_the_deck_holds_twice():
    r = simulated(1)[0]
    r["deck"][r["deck"].index("KB")] = "KC"
    one_line_refusal(tarocchi("replay", "-", stdin=json.dumps(r)), "KC more than once, missing KB")


@pytest.mark.parametrize("seat, shown", [(3, "3"), (-1, "-1"), (10**40, "1" + "0" * 39 + "... (41 characters)")])
def test_replay_says_a_seat_does_not_exist(seat, shown):
    r = simulated(1)[0]
    r["actions"][4]["seat"] = seat
    done = tarocchi("replay", "-", stdin=json.dumps(r))
    one_line_refusal(done, f"action 4: there is no seat {shown}; the seats are 0..2")


def test_replay_cuts_a_huge_action_text_in_its_message():
    r = simulated(1)[0]
    r["actions"][4]["action"] = "K" * 100_000
    done = tarocchi("replay", "-", stdin=json.dumps(r))
    one_line_refusal(done, "action 4 (seat")
    assert "100,002 characters" in done.stderr and len(done.stderr) < 400


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_replay_of_an_empty_input_says_it_holds_no_record(text, tmp_path):
    one_line_refusal(tarocchi("replay", "-", stdin=text), "the input holds no record")
    empty = tmp_path / "empty.jsonl"
    empty.write_text(text)
    one_line_refusal(tarocchi("replay", str(empty)), f"{empty} holds no record")


def test_simulate_names_the_game_and_replay_reads_games_mixed_in_one_file():
    renaissance = tarocchi("simulate", "--game", "renaissance", "--deals", "3", "--seed", "4")
    assert renaissance.returncode == 0, renaissance.stderr
    records = [json.loads(line) for line in renaissance.stdout.splitlines()]
    assert all(r["game"] == "renaissance" and r["seats"] == 3 and len(r["deck"]) == 78 for r in records)
    sicilian = simulated(2)
    legacy = dict(sicilian[1])
    del legacy["game"]  # a record without "game" is Sicilian's
    mixed = [records[0], sicilian[0], records[1], legacy, records[2]]
    done = tarocchi("replay", "-", stdin="\n".join(json.dumps(r) for r in mixed) + "\n")
    assert done.returncode == 0, done.stderr
    counts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [c["record"] for c in counts] == [1, 2, 3, 4, 5]
    for c in counts[0::2]:  # A15: points - 26 each, summing to zero
        assert sum(c["scores"]) == 0 and [p["points"] - 26 for p in c["piles"]] == c["scores"]
    for c in counts[1::2]:
        assert sum(c["payments"]) == 0


def test_simulate_refuses_a_table_size_or_option_the_game_does_not_have():
    done = tarocchi("simulate", "--game", "renaissance", "--seats", "4")
    assert done.returncode == 2 and "renaissance is played at 3 seats" in done.stderr
    assert "Sicilian option" in tarocchi("simulate", "--game", "renaissance", "--throw-in").stderr
    assert tarocchi("simulate", "--game", "chess").returncode == 2


def test_duel_names_the_game():
    done = tarocchi("duel", "--game", "renaissance", "--deals", "3", "--seed", "1", "random", "random")
    assert done.returncode == 0, done.stderr
    assert "renaissance, 3 seats, 3 duplicate deals" in done.stdout and "points/deal" in done.stdout


def test_the_renaissance_count_in_docs_records_md_is_what_the_commands_print():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "records.md").read_text()
    shown = json.loads(next(line for line in text.splitlines() if '"fool":{"seat"' in line).strip())
    records = tarocchi("simulate", "--game", "renaissance", "--deals", "1", "--seed", "1").stdout
    count = json.loads(tarocchi("replay", "-", stdin=records).stdout)
    for pile in count["piles"]:
        pile["cards"] = pile["cards"][:3] + ["..."]
    assert count == shown
