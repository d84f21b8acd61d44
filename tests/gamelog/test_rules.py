"""Rule sets as data: presets follow RULES.md's option table; game.json overrides are validated."""

from __future__ import annotations

import pytest

from gamelog.rules import CLUB, FEDERATION, NOVOSIBIRSK, PRESETS, SHOWTIME, RuleError, RuleSet, rules_for


def test_presets_are_the_four_of_the_contract() -> None:
    assert set(PRESETS) == {"federation", "club", "showtime", "novosibirsk"}
    assert rules_for() is FEDERATION and rules_for(None) is FEDERATION


@pytest.mark.parametrize(
    ("option", "federation", "club", "showtime", "novosibirsk"),
    [
        # 000 1.1 ten players; 004 9–13 players
        ("players_min", 10, 10, 10, 9),
        ("players_max", 10, 10, 10, 13),
        # 000 4.3 first counts, no withdrawal; 001 day 4 / 002 5 withdrawal; 003 SHOWTIME last counts
        ("nomination_counted", "first", "first", "last", "first"),
        ("withdrawal_allowed", False, True, True, True),
        # 000 4.11 single candidate on day 1 not voted; 004 votes
        ("day1", "single_not_voted", "single_not_voted", "single_not_voted", "vote"),
        # 000 4.6 two seconds; 001 voting 3 less than a second
        ("vote_window_ms", 2000, 1000, 2000, 2000),
        # 000 4.10 foul; 001 voting 7 remark; 003 SHOWTIME removal before Спасибо
        ("hand_lift_penalty", "foul", "remark", "removal_before_stop", "foul"),
        # 000 4.13 tied players vote; 003 federation section: they do not
        ("tied_players_vote", True, True, False, True),
        # 000 4.14 last word 60 s; 000 11.6 30 s after a tie; 003 30 s
        ("last_word_s", 60, 60, 30, 60),
        ("last_word_after_tie_s", 30, 30, 30, 30),
        # 000 5.7 thumb up = red; 003 SHOWTIME nod = black
        ("sheriff_signal", "thumb_up_red", "thumb_up_red", "nod_black", "thumb_up_red"),
        # 001 voting 12 best move
        ("best_move", False, True, False, False),
        # 000 4.14 roles not revealed; 004 reveals the card
        ("roles_revealed", False, False, False, True),
        # 000 11.1 three misses in a row: red win
        ("three_misses_red_win", True, False, False, False),
        # 000 7.4 / 7.5: 3 fouls silence, 4 remove; 004: 3 warnings remove
        ("fouls_to_silence", 3, 3, 3, None),
        ("fouls_to_remove", 4, 4, 4, 3),
    ],
)
def test_option_table(
    option: str, federation: object, club: object, showtime: object, novosibirsk: object
) -> None:
    """RULES.md's table "Rule-set options that the seeds disagree on", preset by preset."""
    got = [getattr(r, option) for r in (FEDERATION, CLUB, SHOWTIME, NOVOSIBIRSK)]
    assert got == [federation, club, showtime, novosibirsk]


def test_overrides_apply_to_the_preset() -> None:
    r = rules_for("club", {"day1": "no_vote", "tied_players_vote": False, "fouls_to_silence": None})
    assert r.name == "club" and r.day1 == "no_vote" and not r.tied_players_vote and r.fouls_to_silence is None
    assert r.withdrawal_allowed  # the rest of the preset is kept
    assert rules_for("federation", {"vision_min_conf": 1}).vision_min_conf == 1.0


@pytest.mark.parametrize(
    ("name", "overrides", "message"),
    [
        ("chess", {}, "unknown rule set 'chess'"),
        ("federation", {"tie_break": "coin"}, "unknown rule option 'tie_break'"),
        ("federation", {"name": "club"}, "unknown rule option 'name'"),
        ("federation", {"withdrawal_allowed": "yes"}, "expects true or false"),
        ("federation", {"vote_window_ms": 1.5}, "expects an integer"),
        ("federation", {"vote_window_ms": True}, "expects an integer"),
        ("federation", {"day1": "never"}, "'day1' must be one of"),
        ("federation", {"players_min": 12}, "players_min..players_max"),
        ("federation", {"vision_min_conf": 2}, "within 0..1"),
        ("federation", {"sheriff_signal": 3}, "expects a string"),
    ],
)
def test_bad_options_are_clear_errors(name: str, overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        rules_for(name, overrides)


def test_rule_set_is_frozen_and_serialisable() -> None:
    with pytest.raises(AttributeError):
        FEDERATION.day1 = "vote"  # type: ignore[misc]
    opts = SHOWTIME.options()
    assert opts["name"] == "showtime" and opts["sheriff_signal"] == "nod_black"
    assert RuleSet(**{k: v for k, v in opts.items()}) == SHOWTIME
    assert FEDERATION.hand_lift_clause == "000 4.10" and CLUB.hand_lift_clause == "001 voting 7"
