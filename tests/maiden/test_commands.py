"""Commands: one judge (legal_commands) for apply, bots and the autopilot; refusals have stable
codes and change nothing."""

from __future__ import annotations

import pytest

from delve.kernel import IllegalCommand, get_ruleset, state_hash
from delve.maiden import commands
from delve.maiden.ruleset import MaidenRuleset
from tests.maiden.helpers import act, autoplay_one, ctx, new_game, to_move, waiting


def test_registered_as_maiden() -> None:
    assert isinstance(get_ruleset("maiden"), MaidenRuleset)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"kind": "fly"}, "command/unknown_kind"),
        ({"kind": "move", "to": 3}, "command/malformed"),
        ({"kind": "move", "speed": 3}, "command/malformed"),
        ({"kind": "move", "to": "b_urza"}, "command/unreachable"),
        ({"kind": "resolve"}, "command/not_your_phase"),
        ({"kind": "keep_card", "card": 0}, "command/nothing_to_decide"),
    ],
)
def test_refusals_have_codes_and_change_nothing(command: dict[str, object], code: str) -> None:
    r, g = new_game()
    to_move(r, g, wil=1)
    before = state_hash(r, g)
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 0, command, g.clock)
    assert err.value.code == code
    assert state_hash(r, g) == before


def test_not_your_turn_and_no_such_seat() -> None:
    r, g = new_game(2, start_player=0)
    to_move(r, g, wil=1)
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 1, {"kind": "move", "to": "a1_1"}, g.clock)
    assert err.value.code == "command/not_your_turn"
    # the seat as the API's fields name it (0-based) and as the screens do (player 1): never "seat 0"
    assert err.value.message == "it is the turn of seat index 0 (player 1)"
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 7, {"kind": "stay"}, g.clock)
    assert err.value.code == "command/no_such_seat"
    assert err.value.message == "there is no seat index 7 in this game (seats are numbered from 0)"


def test_a_refused_command_mid_effect_is_rolled_back() -> None:
    """A refusal raised while an effect already ran part of its ops (here: heal, then an AP bonus
    used outside a check) leaves the state untouched."""
    import msgspec

    from tests.maiden.fixtures.content import CONTENT

    areas = dict(CONTENT.areas)
    areas["a3"] = msgspec.structs.replace(
        areas["a3"], arcana=({"op": "heal", "amount": 2}, {"op": "ap_bonus", "amount": 1})
    )
    r, g = new_game(content=msgspec.structs.replace(CONTENT, areas=areas))
    to_move(r, g, wil=1)
    g.maidens[0].life = 2
    g.arcana.append("a3")
    before = state_hash(r, g)
    with pytest.raises(IllegalCommand) as err:
        act(r, g, "use_arcana", area="a3")
    assert err.value.code == "command/no_check"
    assert state_hash(r, g) == before and g.maidens[0].life == 2 and g.arcana == ["a3"]


def test_decision_of_another_seat_blocks() -> None:
    r, g = new_game(2, start_player=1)
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 0, {"kind": "choose_familiar", "familiar": "fam_d"}, g.clock)
    assert err.value.code == "command/not_your_decision"
    assert err.value.message.startswith('seat index 1 (player 2) must decide "choose_familiar" first')
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 1, {"kind": "place_card", "stat": "wil"}, g.clock)
    assert err.value.code == "command/decision_pending"
    assert err.value.message == 'decide "choose_familiar" first'  # said once, the kind quoted as JSON


def test_refusals_quote_commands_as_json() -> None:
    """A refusal quotes the command in the form the request body has (JSON), never as Python
    writes a dict."""
    r, g = new_game(2, start_player=0)
    with pytest.raises(IllegalCommand) as err:
        r.apply(g, 0, {"kind": "choose_familiar", "familiar": "nobody"}, g.clock)
    assert err.value.code == "command/invalid_option"
    assert err.value.message.startswith('{"kind": "choose_familiar", "familiar": "nobody"} is not one of the options')
    assert "'" not in err.value.message
    to_move(r, g, wil=1)
    for command in ({"kind": "resolve"}, {"kind": "move", "to": "b_urza"}, {"kind": "keep_card", "card": 0}):
        with pytest.raises(IllegalCommand) as err:
            r.apply(g, 0, command, g.clock)
        assert "'" not in err.value.message, err.value.message
        assert f'"{command["kind"]}"' in err.value.message or '"b_urza"' in err.value.message


def test_every_legal_command_is_accepted_and_apply_uses_the_same_judge() -> None:
    """For many positions of a game, every command of legal_commands applies on a copy; and
    commands.apply refuses exactly what legal_commands does not list."""
    r, g = new_game(2, seed=3, start_player=0)
    for _ in range(120):
        if g.ended:
            break
        seat = waiting(g)
        for command in r.legal_commands(g, seat):
            copy = r.decode(r.encode(g))
            r.apply(copy, seat, command, g.clock)
        for other in range(2):
            legal = r.legal_commands(g, other)
            if {"kind": "stay"} not in legal:
                copy = r.decode(r.encode(g))
                with pytest.raises(IllegalCommand):
                    commands.apply(ctx(r, copy), other, {"kind": "stay"})
        autoplay_one(r, g)


def test_arcana_listed_for_every_seat() -> None:
    r, g = new_game(3, start_player=0)
    to_move(r, g, wil=1)
    g.arcana.append("a3")
    for seat in range(3):
        assert {"kind": "use_arcana", "area": "a3"} in r.legal_commands(g, seat)
    act(r, g, "move", to="a1_1")
