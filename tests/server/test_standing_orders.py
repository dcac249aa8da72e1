"""Standing defense orders (issue 15, Fated Labyrinth and Level D, FL-DEF): a player's rule answers
their defense phase once it has waited the chosen time, through the normal command path, and an
``order.fired`` event (seen by that seat only) says the order did; the export replays it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from delve.fated.state import Pending
from delve.kernel import SeatInfo, get_ruleset
from delve.server.games import engine
from delve.server.games.models import CommandEntry, EventEntry, Game
from delve.server.orders import fire
from delve.server.orders.models import StandingOrder
from delve.server.records.verify import LogEntry, steps
from tests.server.conftest import START, FakeClock, session_client
from tests.server.fated_kit import rewrite
from tests.server.notify_kit import HOUR, fated, player

MINUTE = 60


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("ann", "bob", "cid", "dan")]


@pytest.fixture
def game(db: None, clock: FakeClock, four: list[Any]) -> Game:
    return fated(four)


def defending(game: Game, clock: FakeClock, item: Pending) -> None:
    """Seat 0 in a defense phase for ``item`` since now (its last action)."""

    def arrange(s: Any) -> None:
        me = s.p(0)
        me.pending.append(item)
        me.phase = "defense"
        me.last_action_at = clock.t
        me.wait_ended_at = clock.t

    rewrite(game, arrange)


def attack(clock: FakeClock) -> Pending:
    return Pending(
        id=50,
        kind="attack",
        created=clock.t,
        row="dmg_adjacent",
        label="normal",
        source=1,
        power=12,
        evasion_rolled=True,
    )


def order_for(game: Game, user: Any, **fields: Any) -> StandingOrder:
    return StandingOrder.objects.create(seat=game.seats.get(user=user), **fields)


def test_a_standing_order_answers_a_waiting_defense_after_its_delay_FL_DEF(game, four, clock):
    order_for(game, four[0], damage="least_loss", delay_minutes=30)
    defending(game, clock, attack(clock))
    clock.tick(29 * MINUTE)
    assert fire.fire_due(clock.t) == 0, "not before the delay"
    assert player(game, 0).phase == "defense"
    clock.tick(MINUTE)
    assert fire.fire_due(clock.t) == 1
    aki = player(game, 0)
    assert aki.phase != "defense" and not aki.pending
    entry = CommandEntry.objects.filter(game=game, seat=0).latest("sequence")
    assert entry.source == "player" and entry.idempotency_key.startswith("order:least_loss:")
    assert entry.command["kind"] in ("defend", "no_defense")
    fired = EventEntry.objects.get(game=game, kind="order.fired")
    assert fired.to == (0,) and fired.data == {"rule": "least_loss", "command": entry.command}
    assert fire.fire_due(clock.t) == 0, "fired once"


def test_the_order_event_is_seen_by_its_seat_only(game, four, clock):
    order_for(game, four[0], damage="no_card", delay_minutes=0)
    defending(game, clock, attack(clock))
    assert fire.fire_due(clock.t) == 1
    mine = session_client(four[0]).get(f"/api/v1/games/{game.pk}/events").json()["events"]
    theirs = session_client(four[1]).get(f"/api/v1/games/{game.pk}/events").json()["events"]
    assert [e["data"] for e in mine if e["kind"] == "order.fired"] == [
        {"rule": "no_card", "command": {"kind": "no_defense"}}
    ]
    assert not [e for e in theirs if e["kind"] == "order.fired"]


def test_refuse_pass_bys(game, four, clock):
    order_for(game, four[0], pass_by="decline", delay_minutes=5)
    me = player(game, 0)
    request = Pending(id=51, kind="pass_by", created=clock.t, source=1, tile=me.pos + 1, target_tile=me.pos)
    defending(game, clock, request)
    clock.tick(5 * MINUTE)
    assert fire.fire_due(clock.t) == 1
    assert CommandEntry.objects.filter(game=game, seat=0).latest("sequence").command == {"kind": "decline_pass_by"}


def test_an_order_leaves_what_it_does_not_cover_to_the_player(game, four, clock):
    order_for(game, four[0], pass_by="decline", delay_minutes=0)
    defending(game, clock, attack(clock))
    clock.tick(HOUR)
    assert fire.fire_due(clock.t) == 0
    assert player(game, 0).phase == "defense"


def test_without_an_order_nothing_answers(game, four, clock):
    defending(game, clock, attack(clock))
    clock.tick(50 * HOUR)
    assert fire.fire_due(clock.t) == 0


def test_a_replay_repeats_the_order_event_before_the_command():
    """``delve verify`` and the replay rebuild the ``order.fired`` event from the log entry."""
    ruleset = get_ruleset("fated")
    seats = [SeatInfo(f"P{n}", {"class": "warrior", "keep_record": True}) for n in range(4)]
    log = [LogEntry(time=START + 1, seat=0, command={"kind": "comment", "text": "hi"}, order="least_loss")]
    settings = {"preset": "fated-labyrinth", "players": 4, "maze_size": 9}
    *_, last = steps(ruleset, settings, seats, 7, START, log)
    [fired] = [e for e in last.events if e.kind == "order.fired"]
    assert fired.to == (0,) and fired.data == {"rule": "least_loss", "command": {"kind": "comment", "text": "hi"}}


def test_the_order_page_saves_and_refuses_bad_values(game, four):
    client = session_client(four[0])
    assert client.get(f"/me/orders/{game.pk}/").status_code == 200
    response = client.post(
        f"/me/orders/{game.pk}/", {"damage": "least_loss", "pass_by": "decline", "delay_minutes": "45"}
    )
    assert response.status_code == 302
    order = StandingOrder.objects.get(seat__user=four[0])
    assert (order.damage, order.pass_by, order.delay_minutes) == ("least_loss", "decline", 45)
    bad = client.post(f"/me/orders/{game.pk}/", {"damage": "everything", "pass_by": "decline", "delay_minutes": "-1"})
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()
    order.refresh_from_db()
    assert order.delay_minutes == 45


def test_only_a_player_of_a_running_fated_game_has_an_order_page(game, make_user, db):
    assert session_client(make_user("eve")).get(f"/me/orders/{game.pk}/").status_code == 404
    toy = engine.create_game("toy", "toy", {})
    assert session_client(make_user("fay")).get(f"/me/orders/{toy.pk}/").status_code == 404


@pytest.mark.parametrize(("preset", "lang"), [("level-d", "ja"), ("level-d", "en"), ("fated-labyrinth", "ja")])
def test_the_order_page_speaks_the_presets_words_P_25_P_26(db, clock, four, preset, lang):
    """P-25, P-26: the order form's labels and its intro go through the preset's vocabulary:
    Level D's says ワナ (its "against attacks, traps and steals" option) and 防御ターン, Fated
    Labyrinth's keeps 罠 and 防御フェイズ; every label is in the reader's language."""
    from html import unescape

    game = fated(four, preset=preset)
    client = session_client(four[0])
    client.cookies["django_language"] = lang
    body = unescape(client.get(f"/me/orders/{game.pk}/", headers={"Accept-Language": lang}).content.decode())
    if lang == "en":
        assert "Against attacks, traps and steals" in body
        assert "when a defense turn of yours has waited" in body and "phase" not in body
        return
    assert "防御が待ってから（分）" in body
    if preset == "level-d":
        assert "攻撃・ワナ・盗みに対して" in body and "あなたの防御ターンがこの時間待つと" in body
        assert "罠" not in body and "フェイズ" not in body
    else:
        assert "攻撃・罠・盗みに対して" in body and "あなたの防御フェイズがこの時間待つと" in body


def test_the_replay_names_a_fired_order_by_its_option_on_the_order_page(db):
    """The replay printed the rule's internal name ("A standing order answered (no_card)"); it
    says the option as /me/orders/ words it (one source: the order's choices), English, Japanese
    and in Level D's words (ワナ for 罠)."""
    from django.utils import translation

    from delve.server.games.models import Game
    from delve.server.orders.models import FIRED_RULES, rule_label
    from delve.server.records.replay import describe

    game = Game(ruleset="fated", preset="fated-labyrinth")
    data = {"rule": "no_card", "command": {"kind": "no_defense"}}
    with translation.override("en"):
        line = describe(game, "order.fired", data, START, "en", ["P1"], to=(0,))
        assert "no_card" not in line
        assert line.startswith(f"The standing order “{StandingOrder.Damage.NO_CARD.label}” answered: ")
        assert set(FIRED_RULES) == {"no_card", "least_loss", "decline_pass_by", "accept_pass_by"}
        assert all(rule_label(rule) != rule for rule in FIRED_RULES)
    with translation.override("ja"):
        line = describe(game, "order.fired", data, START, "ja", ["P1"], to=(0,))
        assert line.startswith("常備命令「カードを使わずに受ける（カードを残す）」が応答しました：")
        assert "no_card" not in line


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replay_step_an_order_answered_is_headed_by_the_order_and_numbered_as_the_export(db, clock, four, lang):
    """The replay headed an order's command "bob acts: ..." (only a small event line said an order
    answered): the step's heading names the seat's standing order by its option as /me/orders/
    words it, in the reader's language; and the step shows the export's ``sequence`` of its command
    (step N is the game after N commands; the start is sequence 1, so the numbers differ)."""
    from html import unescape

    from django.test import Client

    from delve.kernel import DelveError
    from delve.server.records.verify import ORDER_KEY

    game = fated(four, preset="level-d")
    engine.submit(
        game.pk,
        four[0],
        {"kind": "comment", "text": "hi"},
        idempotency_key=f"{ORDER_KEY}least_loss:1",
        order="least_loss",
    )
    clock.tick(1)
    engine.submit(game.pk, four[1], {"kind": "comment", "text": "plain"})
    for user in four:
        clock.tick(1)
        try:
            engine.submit(game.pk, user, {"kind": "give_up"})
        except DelveError:
            continue
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    log = list(game.commands.order_by("sequence"))
    ordered = next(
        n for n, c in enumerate(log, start=1) if c.idempotency_key and c.idempotency_key.startswith(ORDER_KEY)
    )
    client = Client()
    client.cookies["django_language"] = lang
    page = unescape(client.get(f"/games/{game.pk}/replay/?step={ordered}").content.decode())
    heading = re.search(r"<h2>([^<]*)</h2>", page.split('class="game replay-step"')[1])[1]
    name = game.seats.get(user=four[0]).name
    if lang == "en":
        assert heading.startswith(f"{name}'s standing order “{StandingOrder.Damage.LEAST_LOSS.label}” answers: "), (
            heading
        )
        assert f"step {ordered} · export sequence {log[ordered - 1].sequence}" in page
    else:
        assert heading.startswith(f"{name}の常備命令「"), heading
        assert "の応答：" in heading and "least_loss" not in heading
        assert f"ステップ {ordered} · エクスポートの sequence {log[ordered - 1].sequence}" in page
    plain = unescape(client.get(f"/games/{game.pk}/replay/?step={ordered + 1}").content.decode())
    heading = re.search(r"<h2>([^<]*)</h2>", plain.split('class="game replay-step"')[1])[1]
    assert "standing order" not in heading and "常備命令" not in heading, heading
