"""Notifications (issue 15): each trigger with a fake clock, sent once, not sent when the
preferences say no, batched in the daily digest, and an outbox that survives a failing mail
server. The worker sends; requests never do."""

from __future__ import annotations

import json
import smtplib
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from delve.fated.state import Pending
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.notify import channels, outbox, triggers
from delve.server.notify.models import Notice, OutboxMessage, Preference, PushSubscription
from tests.server.conftest import START, FakeClock
from tests.server.fated_kit import rewrite
from tests.server.notify_kit import HOUR, browser_keys, fated, player, settled, step


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name, email=f"{name}@example.org") for name in ("ann", "bob", "cid", "dan")]


@pytest.fixture
def game(db: None, clock: FakeClock, four: list[Any]) -> Game:
    return fated(four)


def notices(user: Any, kind: str) -> list[Notice]:
    return list(Notice.objects.filter(user=user, kind=kind))


def mails_to(address: str, contains: str = "") -> list[Any]:
    return [m for m in mail.outbox if address in m.to and contains in (m.subject + m.body)]


# --- started, turn ready, sent once ----------------------------------------------------------------


def test_the_start_is_announced_once_to_each_player_by_the_worker(game, four):
    assert not mail.outbox, "registering (a request) sends nothing"
    step()
    for user, name in zip(four, ("Aki", "Ben", "Chie", "Dan"), strict=True):
        sent = mails_to(user.email, "has started")
        assert len(sent) == 1 and name in sent[0].body and f"/games/{game.pk}/" in sent[0].body
    step()
    step()
    assert len(mail.outbox) == 4, "a second and third pass send nothing more"


def test_a_rescan_of_recorded_events_reads_them_in_one_query_and_writes_only_the_bookmark(game, four, clock):
    """A game changed by something nobody is told about (here a comment) is scanned again: the
    starts it finds were recorded by the first pass, so the scan reads the seats, their
    preferences and the recorded notices once each, and moves its bookmark with one UPDATE."""
    step()
    recorded = Notice.objects.count()
    assert recorded == 4
    engine.submit(game.pk, four[0], {"kind": "comment", "text": "hello"})
    game.refresh_from_db()
    assert list(triggers.due_games(clock())) == [game]
    with CaptureQueriesContext(connection) as queries:
        assert triggers.scan(game, clock()) == []
    sql = [q["sql"] for q in queries.captured_queries]
    assert [s.split(None, 1)[0].upper() for s in sql] == ["SELECT", "SELECT", "SELECT", "UPDATE"], sql
    assert "notify_watch" in sql[-1]
    assert Notice.objects.count() == recorded
    assert list(triggers.due_games(clock())) == []


def test_a_ready_turn_is_announced_once_FL_TURN_7(game, four, clock):
    step()
    mail.outbox.clear()
    clock.t = START + HOUR  # every first accumulation instant is within the first wait time
    settled()
    assert player(game, 0).phase == "ready"
    for user in four:
        assert len(mails_to(user.email, "your turn is ready")) == 1
    clock.tick(60)
    settled()
    assert len(mails_to(four[0].email, "your turn is ready")) == 1, "the same wait is not announced twice"


def test_a_new_wait_is_a_new_notice_after_the_turn_is_played(game, four, clock):
    clock.t = START + HOUR
    step()
    engine.open_game(game.pk, four[0])  # the turn starts (FL-TURN-8) ...
    _end_turn(game, four[0])
    assert player(game, 0).phase == "wait"
    clock.t = START + 2 * HOUR + 1
    step()
    assert player(game, 0).phase == "ready"
    assert len(notices(four[0], "turn")) == 2


def _end_turn(game: Game, user: Any) -> None:
    """Play ``stay``/``end`` style commands until the seat is back in its wait phase."""
    for _ in range(20):
        if player(game, 0).phase == "wait":
            return
        game.refresh_from_db()
        ruleset = engine.ruleset_of(game)
        legal = ruleset.legal_commands(engine.load_state(game, ruleset), 0)
        kinds = [c["kind"] for c in legal]
        for wanted in ("pass", "stay", "end_turn", "end"):
            if wanted in kinds:
                engine.submit(game.pk, user, next(c for c in legal if c["kind"] == wanted))
                break
        else:
            raise AssertionError(f"no way to end the turn among {kinds}")
    raise AssertionError("the turn did not end")


# --- the grace of a waiting decision -----------------------------------------------------------------


def test_a_turn_message_waits_the_grace_and_goes_out_if_the_turn_still_waits_FL_TURN_7(game, four, clock, settings):
    """A "your turn" message is queued with the notice but sent only NOTIFY_GRACE seconds later,
    when the turn still waits (a player away from the screen)."""
    settings.NOTIFY_GRACE = 120
    clock.t = START + HOUR
    step()
    assert not mails_to(four[0].email, "your turn is ready"), "not at once"
    assert outbox.deliver(clock.t + 119, "test-worker")["sent"] == 0
    assert outbox.deliver(clock.t + 120, "test-worker")["sent"] == 4
    assert len(mails_to(four[0].email, "your turn is ready")) == 1


def test_a_player_who_acts_within_the_grace_is_not_told_of_it_FL_TURN_7(game, four, clock, settings):
    """The player opened the turn (at the screen) before the message was due: it is dropped, not
    sent late, and the same wait is not announced again; the others are told."""
    settings.NOTIFY_GRACE = 120
    clock.t = START + HOUR
    step()
    engine.open_game(game.pk, four[0])  # the turn starts (FL-TURN-8): the wait is over
    counts = outbox.deliver(clock.t + 120, "test-worker")
    assert counts["stale"] >= 1 and counts["sent"] == 3
    assert not mails_to(four[0].email, "your turn is ready")
    [message] = OutboxMessage.objects.filter(user=four[0], subject__contains="your turn is ready")
    assert message.status == OutboxMessage.Status.STALE and message.sent_at is None
    clock.tick(300)
    settled()
    assert not mails_to(four[0].email, "your turn is ready")
    assert len(notices(four[0], "turn")) == 1


def test_a_defense_answered_within_the_grace_is_not_mailed_FL_DEF(game, four, clock, settings):
    settings.NOTIFY_GRACE = 120
    step()

    def attacked(s: Any) -> None:
        s.make_ready(1)
        s.p(1).pending.append(  # evasion already rolled (and failed): the defense phase comes for sure
            Pending(
                id=900,
                kind="attack",
                created=s.now,
                row="dmg_adjacent",
                label="normal",
                source=0,
                power=10,
                evasion_rolled=True,
            )
        )

    rewrite(game, attacked)
    step()
    assert notices(four[1], "defense")
    engine.open_game(game.pk, four[1])  # at the screen: the defense is asked now
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    legal = ruleset.legal_commands(engine.load_state(game, ruleset), 1)
    assert {"kind": "no_defense"} in legal, legal
    engine.submit(game.pk, four[1], {"kind": "no_defense"})
    outbox.deliver(clock.t + 120, "test-worker")
    assert not mails_to(four[1].email, "defense waits")


def test_a_white_maiden_player_taking_decisions_one_after_another_gets_no_mail(db, clock, four, settings):
    """White Maiden: a player at the screen deciding one thing after another (a level-up, then a
    move) was mailed for each, a second apart; now only a decision still waiting when its
    message is due is told, once."""
    from tests.server.maiden_kit import legal, maiden_game

    settings.NOTIFY_GRACE = 120
    game = maiden_game(four[:2])
    for _ in range(6):  # the waiting seat decides at once, several times
        step()
        state = engine.load_state(game)
        [seat] = state.waiting
        engine.submit(game.pk, four[seat], next(c for c in legal(game, seat) if c.get("kind") != "comment"))
        game.refresh_from_db()
    step()
    state = engine.load_state(game)
    [waiting] = state.waiting
    outbox.deliver(clock.t + 120, "test-worker")
    assert len(mails_to(four[waiting].email, "your turn is ready")) == 1  # the decision waiting now
    assert not mails_to(four[1 - waiting].email, "your turn is ready")  # every one taken at once
    assert Notice.objects.filter(kind="turn").count() >= 3
    assert OutboxMessage.objects.filter(status=OutboxMessage.Status.STALE).count() >= 2


def test_without_a_grace_the_message_goes_at_once(game, four, clock, settings):
    settings.NOTIFY_GRACE = 0
    clock.t = START + HOUR
    step()
    assert len(mails_to(four[0].email, "your turn is ready")) == 1


# --- preferences -----------------------------------------------------------------------------------


def test_nothing_is_sent_about_what_the_preferences_exclude(game, four, clock):
    Preference.objects.create(user=four[0], kinds=["ended"])
    Preference.objects.create(user=four[1], email=False, push=False)
    step()
    clock.t = START + HOUR
    settled()
    assert not mails_to(four[0].email) and not mails_to(four[1].email)
    assert all(n.skipped for n in Notice.objects.filter(user__in=four[:2]))
    told = sorted(n.kind for n in Notice.objects.filter(user=four[2], skipped=False))
    assert told == ["cap", "started", "turn"], "the others are told (the cap is 2 hours away: within 6)"
    assert len(mails_to(four[2].email)) == 3


def test_a_player_without_an_address_gets_no_mail_and_nothing_waits_in_the_outbox(game, four, clock):
    four[3].email = ""
    four[3].save()
    step()
    assert not OutboxMessage.objects.filter(user=four[3]).exists()
    assert Notice.objects.get(user=four[3], kind="started").skipped


# --- the attack, the cap, the deadlines ------------------------------------------------------------


def test_an_attack_waiting_for_a_defense_is_announced_once_FL_DEF(game, four, clock):
    step()

    def attacked(s: Any) -> None:
        s.p(1).pending.append(
            Pending(id=900, kind="attack", created=s.now, row="dmg_adjacent", label="normal", source=0, power=10)
        )

    rewrite(game, attacked)
    settled()
    assert len(mails_to(four[1].email, "defense waits")) == 1
    rewrite(
        game,
        lambda s: s.p(1).pending.append(
            Pending(id=901, kind="attack", created=s.now, row="dmg_adjacent", label="normal")
        ),
    )
    step()
    assert len(notices(four[1], "defense")) == 1, "a second attack on the same waiting pile is not a new message"
    assert not notices(four[0], "defense")


def test_the_cap_warning_comes_cap_hours_before_the_first_lost_turn_FL_TURN_6(game, four, clock):
    Preference.objects.create(user=four[0], cap_hours=1)
    clock.t = START + HOUR
    step()
    aki = player(game, 0)
    assert aki.phase == "ready" and aki.stored == 1
    # stored 1 of 2: the next accumulation makes 2, the one after is lost
    lost_at = aki.first_at + (aki.acc_next + 1) * HOUR
    clock.t = lost_at - HOUR - 1
    step()
    assert not notices(four[0], "cap")
    clock.t = lost_at - HOUR
    step()
    [notice] = notices(four[0], "cap")
    assert notice.key == str(lost_at) and notice.data["stored"] == 2 and notice.data["cap"] == 2
    assert len(mails_to(four[0].email, "turns will be lost")) == 1
    clock.t = lost_at + 10
    step()
    assert len(notices(four[0], "cap")) == 1
    assert player(game, 0).lost_turns == 1


def test_a_fast_games_cap_warning_waits_for_half_the_cap_and_comes_once_per_approach_FL_TURN_6(db, clock, make_user):
    """FL-TURN-6: in a game of 30-second turns and a cap of 24 the cap is always within the
    6-hour warning window, and "turns will be lost" went out every 30 s, at 0 of 24 stored too,
    as each turn played moved the time of the first lost turn (the key). The warning waits for
    half the cap stored and then comes once; playing on near the cap sends no more until the
    time it warned of has come."""
    users = [make_user(name) for name in ("ann", "bob", "cid", "dan")]
    fast = fated(users, wait_time=30, max_stored_turns=24)
    seen: list[int] = []
    warned_at = None
    for k in range(1, 60):
        clock.t = START + 30 * k
        if warned_at is not None and clock.t >= warned_at:
            break
        step()
        aki = player(fast, 0)
        if aki.stored > 13:  # the player plays one turn a turn: the stored count stays, the key moves
            rewrite(fast, lambda s: setattr(s.p(0), "stored", s.p(0).stored - 1))
            step()
        caps = notices(users[0], "cap")
        if not caps:
            assert aki.stored * 2 < 24 or not seen, aki.stored
            seen.append(aki.stored)
            continue
        [notice] = caps  # one, all along the approach
        assert notice.data["stored"] >= 12
        warned_at = warned_at or notice.data["at"]
    assert warned_at is not None and max(seen) < 12
    assert len(mails_to(users[0].email, "turns will be lost")) <= 1  # the one notice, no other


def test_the_abandonment_deadline_is_announced_24_hours_and_1_hour_ahead_AMB_50(game, four, clock):
    clock.t = START + HOUR
    step()
    aki = player(game, 0)
    deadline = aki.wait_ended_at + 100 * HOUR
    clock.t = deadline - 24 * HOUR - 1
    step()
    assert not notices(four[0], "deadline_24h")
    clock.t = deadline - 24 * HOUR
    step()
    assert [n.key for n in notices(four[0], "deadline_24h")] == [str(deadline)]
    assert not notices(four[0], "deadline_1h")
    clock.t = deadline - HOUR + 30
    step()
    step()
    assert len(notices(four[0], "deadline_1h")) == 1
    assert len(mails_to(four[0].email, "1 hour left")) == 1
    assert len(mails_to(four[0].email, "24 hours left")) == 1


def test_no_deadline_warning_when_the_whole_countdown_is_shorter_than_the_window(db, clock, four):
    game = fated(four, abandon_time=12 * HOUR)
    clock.t = START + HOUR
    step()
    clock.t = START + 12 * HOUR
    step()
    assert not Notice.objects.filter(game=game, kind="deadline_24h").exists()
    assert Notice.objects.filter(game=game, kind="deadline_1h").count() == 4


def _act(game: Game, user: Any, seat: int = 0) -> None:
    """One action of ``seat`` (not a comment, not a give-up): a turn opened, a move, a stay, nothing."""
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    legal = ruleset.legal_commands(engine.load_state(game, ruleset), seat)
    by_kind = {c["kind"]: c for c in legal}
    for wanted in ("start_turn", "move", "stay", "nothing", "end_turn", "end", "pass"):
        if wanted in by_kind:
            engine.submit(game.pk, user, by_kind[wanted])
            return
    raise AssertionError(f"no action among {sorted(by_kind)}")


def _deadline(game: Game, seat: int = 0) -> int:
    game.refresh_from_db()
    ruleset = engine.ruleset_of(game)
    deadline = ruleset.attention(engine.load_state(game, ruleset), seat).deadline
    assert deadline is not None
    return deadline


def test_a_one_day_deadline_is_not_warned_of_after_every_move_and_once_when_near_AMB_50(db, clock, four):
    """The demo's games abandon after exactly one day (AMB-50: counted from the last action). Each
    move starts a new one-day countdown, and "24 hours left" came right after every move: a
    countdown no longer than the window has nothing to warn ahead of. Seven moves in a row, each
    followed by the worker's pass, tell nothing; an hour before the deadline the player is told
    once, and passes after that tell nothing more."""
    game = fated(four, abandon_time="1d", max_stored_turns=10)
    clock.t = START + 8 * HOUR  # several turns stored: the seat has moves to make
    step()
    mail.outbox.clear()
    _act(game, four[0])  # the turn opened (no action: AMB-50)
    for _ in range(7):
        clock.tick(60)
        before = player(game, 0).last_action_at
        _act(game, four[0])
        step()
        assert player(game, 0).last_action_at > before, "an action: a new one-day countdown"
        assert player(game, 0).phase != "wait", "the seat keeps a deadline"
    assert not Notice.objects.filter(user=four[0], kind__startswith="deadline").exists()
    assert not mails_to(four[0].email, "left to act")
    for seat in (1, 2, 3):  # the others act too (after Aki), or they are abandoned before Aki's last hour
        _act(game, four[seat], seat)  # opening the turn is no action (AMB-50) ...
        _act(game, four[seat], seat)  # ... the first move is
    deadline = _deadline(game)
    clock.t = deadline - HOUR - 1
    step()
    assert not Notice.objects.filter(user=four[0], kind__startswith="deadline").exists()
    clock.t = deadline - HOUR
    step()
    clock.tick(600)
    step()
    [notice] = Notice.objects.filter(user=four[0], kind__startswith="deadline")
    assert (notice.kind, notice.key) == ("deadline_1h", str(deadline))
    assert len(mails_to(four[0].email, "left to act")) == 1
    assert len(mails_to(four[0].email, "1 hour left to act")) == 1


def test_a_one_hour_deadline_is_not_warned_of_an_hour_ahead_AMB_50(db, clock, four):
    game = fated(four, abandon_time="1h")
    clock.t = START + HOUR
    step()
    for _ in range(3):
        clock.tick(30)
        _act(game, four[0])
        step()
    assert not Notice.objects.filter(kind__startswith="deadline").exists()


def test_a_worker_that_comes_late_tells_only_the_nearest_deadline_AMB_50(game, four, clock):
    """The worker was away from before the 24-hour mark to within the last hour: the player is
    told "1 hour left" once, not "24 hours left" as well (it is wrong by then).

    The player is the seat whose deadline comes first: each seat's first turn is ready at a
    random instant of the first hour (the game's seed), so the four deadlines are up to an hour
    apart, and half an hour before a later one the seats whose deadlines had passed were
    abandoned (with three of them gone the game had ended and warned nobody)."""
    clock.t = START + HOUR
    step()
    seat, deadline = min(((seat, _deadline(game, seat)) for seat in range(4)), key=lambda pair: pair[1])
    clock.t = deadline - HOUR // 2
    step()
    step()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING, "nobody was abandoned yet"
    user = four[seat]
    assert [n.kind for n in notices(user, "deadline_1h")] == ["deadline_1h"]
    assert not notices(user, "deadline_24h")
    assert not mails_to(user.email, "24 hours left")
    assert len(mails_to(user.email, "1 hour left")) == 1


def test_a_one_day_white_maiden_deadline_is_not_warned_of_after_every_decision(db, clock, four):
    """White Maiden with a 24-hour turn deadline: each decision starts a new one; seven taken one
    after another tell of no deadline."""
    from tests.server.maiden_kit import legal, maiden_game

    game = maiden_game(four[:2], turn_deadline_hours=24)
    for _ in range(7):
        step()
        clock.tick(60)
        [seat] = engine.load_state(game).waiting
        engine.submit(game.pk, four[seat], next(c for c in legal(game, seat) if c.get("kind") != "comment"))
        game.refresh_from_db()
    step()
    assert not Notice.objects.filter(kind__startswith="deadline").exists()
    state = engine.load_state(game)
    clock.t = state.deadline - HOUR
    step()
    step()
    [seat] = state.waiting
    [notice] = Notice.objects.filter(kind__startswith="deadline")
    assert (notice.user, notice.kind) == (four[seat], "deadline_1h")


def test_a_deadline_warning_held_up_by_the_mail_server_is_dropped_once_the_player_acted_AMB_50(
    game, four, clock, settings
):
    """The "24 hours left" mail could not be sent (the mail server was down); the player acted
    meanwhile, so that deadline no longer stands: the mail is not sent late (status stale), and
    the new deadline is far away."""
    clock.t = START + HOUR
    step()
    deadline = _deadline(game)
    settings.EMAIL_BACKEND = "tests.server.test_notify.DownBackend"
    clock.t = deadline - 24 * HOUR
    step()
    [warning] = OutboxMessage.objects.filter(user=four[0], subject__contains="24 hours left")
    assert warning.status == OutboxMessage.Status.PENDING and warning.notice is not None
    _act(game, four[0])  # the turn opened (no action) ...
    clock.tick(60)
    _act(game, four[0])  # ... and a move: the deadline moves 100 hours on
    assert _deadline(game) > deadline
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    clock.tick(outbox.MAX_BACKOFF)
    step()
    warning.refresh_from_db()
    assert warning.status == OutboxMessage.Status.STALE and warning.sent_at is None
    assert not mails_to(four[0].email, "left to act")


def test_a_deadline_warning_held_up_goes_out_while_its_deadline_stands_AMB_50(game, four, clock, settings):
    clock.t = START + HOUR
    step()
    deadline = _deadline(game)
    settings.EMAIL_BACKEND = "tests.server.test_notify.DownBackend"
    clock.t = deadline - 24 * HOUR
    step()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    clock.tick(outbox.MAX_BACKOFF)
    step()
    assert len(mails_to(four[0].email, "24 hours left")) == 1


def everyone_gives_up(game, four):
    """The notification pass runs, each player still playing gives up (the game ends), and the
    pass runs again."""
    step()
    for user in four:
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            engine.submit(game.pk, user, {"kind": "give_up"})
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    step()


def test_the_end_is_announced_with_each_result(game, four, clock):
    everyone_gives_up(game, four)
    for user in four:
        assert len(mails_to(user.email, "has ended")) == 1
    step()
    assert len(mails_to(four[0].email, "has ended")) == 1


def test_a_game_is_rescanned_when_it_changes_or_a_warning_comes_due_not_otherwise(game, four, clock):
    clock.t = START + HOUR
    step()
    due = lambda: [g.pk for g in triggers.due_games(clock.t)]  # noqa: E731
    assert due() == []
    watch = game.notify_watch
    watch.refresh_from_db()
    assert watch.next_check_at is not None and watch.next_check_at > clock.t
    clock.t = watch.next_check_at
    assert due() == [game.pk], "a warning time has come"
    step()
    engine.submit(game.pk, four[0], {"kind": "comment", "text": "hello"})
    assert due() == [game.pk], "a change makes the game due"


def test_requests_record_and_send_nothing(game, four):
    assert not Notice.objects.exists() and not OutboxMessage.objects.exists() and not mail.outbox


# --- White Maiden ----------------------------------------------------------------------------------


def test_a_white_maiden_seat_that_must_act_is_told_and_its_autopilot_deadline_warned(db, clock, four):
    from tests.server.maiden_kit import maiden_game

    game = maiden_game(four[:2], turn_deadline_hours=48)
    settled()
    state = engine.load_state(game)
    [waiting] = state.waiting
    assert len(mails_to(four[waiting].email, "your turn is ready")) == 1
    assert not mails_to(four[1 - waiting].email, "your turn is ready")
    clock.t = state.deadline - 24 * HOUR
    step()
    [sent] = mails_to(four[waiting].email, "24 hours left")
    assert "autopilot" in sent.body


# --- the digest ------------------------------------------------------------------------------------


def test_the_digest_batches_a_day_of_notices_into_one_mail(game, four, clock):
    Preference.objects.create(user=four[0], mode=Preference.Mode.DIGEST, digest_hour=8, last_digest_at=START)
    step()
    clock.t = START + HOUR
    step()
    assert not mails_to(four[0].email), "digest readers get no single messages"
    waiting = Notice.objects.filter(user=four[0], digest=True)
    assert sorted(waiting.values_list("kind", flat=True)) == ["cap", "started", "turn"]
    next_digest = outbox.digest_time(Preference.objects.get(user=four[0]), START) + 24 * HOUR
    clock.t = next_digest
    step()
    [digest] = mails_to(four[0].email)
    assert "3 things happened" in digest.subject
    assert "has started" in digest.body and "turn is ready" in digest.body and "new turn is lost" in digest.body
    clock.tick(HOUR)
    step()
    assert len(mails_to(four[0].email)) == 1, "each notice is in exactly one digest"
    assert len(mails_to(four[1].email)) == 3, "instant readers got theirs at once"


def test_the_digest_is_written_in_the_readers_language(game, four, clock):
    Preference.objects.create(user=four[2], mode=Preference.Mode.DIGEST, language="ja", last_digest_at=START)
    step()
    clock.t = outbox.digest_time(Preference.objects.get(user=four[2]), START) + 24 * HOUR
    step()
    [digest] = mails_to(four[2].email)
    assert "始まりました" in digest.body and "通知の設定" in digest.body


# --- a failing mail server -------------------------------------------------------------------------


class DownBackend:
    """A mail server that refuses connections."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def send_messages(self, messages: Any) -> int:
        raise smtplib.SMTPConnectError(421, "down for maintenance")


def test_a_failing_mail_server_delays_messages_but_loses_none_and_blocks_nothing(game, four, clock, settings):
    settings.EMAIL_BACKEND = "tests.server.test_notify.DownBackend"
    counts = step()
    assert counts["failed"] == 1 and counts["postponed"] == 3, "after the first failure the pass stops trying"
    pending = OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING)
    assert pending.count() == 4
    assert max(m.attempts for m in pending) == 1 and "down for maintenance" in pending.get(attempts=1).last_error
    clock.t = START + HOUR  # the game clock goes on meanwhile
    step()
    assert player(game, 0).phase == "ready", "the game was advanced"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    clock.tick(outbox.MAX_BACKOFF)
    step()
    assert not OutboxMessage.objects.filter(status=OutboxMessage.Status.PENDING).exists()
    assert len(mail.outbox) == OutboxMessage.objects.count() == 12, "every message arrived in the end (4 x 3)"


def test_the_backoff_doubles_up_to_an_hour():
    assert [outbox.backoff(n) for n in (1, 2, 3, 7, 20)] == [60, 120, 240, 3600, 3600]


def test_a_claimed_message_is_sent_by_one_worker_only(game, four, clock):
    triggers.scan_due(clock.t)
    first = outbox.claim(clock.t, "w1", 10)
    second = outbox.claim(clock.t, "w2", 10)
    assert len(first) == 4 and second == []
    assert outbox.deliver(clock.t, "w2")["sent"] == 0
    assert outbox.deliver(clock.t, "w1")["sent"] == 0, "w1's claims are still leased, deliver claims anew"
    clock.tick(outbox.LEASE + 1)
    assert outbox.deliver(clock.t, "w2")["sent"] == 4
    assert len(mail.outbox) == 4


# --- Web Push -------------------------------------------------------------------------------------


@pytest.fixture
def vapid(settings: Any) -> Any:
    settings.DELVE_VAPID_PUBLIC_KEY = "BPublicKeyForTests"
    settings.DELVE_VAPID_PRIVATE_KEY = "private-key-for-tests"
    return settings


def subscribe(user: Any, n: int = 1) -> PushSubscription:
    return PushSubscription.objects.create(user=user, endpoint=f"https://push.example/{user.pk}/{n}", **browser_keys())


def test_push_is_off_without_vapid_keys(game, four):
    subscribe(four[0])
    step()
    assert not OutboxMessage.objects.filter(channel=OutboxMessage.Channel.PUSH).exists()


def test_push_goes_to_each_browser_and_a_gone_browser_is_forgotten(game, four, vapid, monkeypatch):
    from pywebpush import WebPushException

    sent: list[tuple[str, str]] = []

    class Response:
        status_code = 410

    def fake(subscription: dict[str, Any], data: str, ttl: int) -> None:
        if subscription["endpoint"].endswith("/2"):
            raise WebPushException("gone", response=Response())
        sent.append((subscription["endpoint"], data))

    monkeypatch.setattr(channels, "webpush", fake)
    subscribe(four[0], 1)
    subscribe(four[0], 2)
    counts = step()
    assert counts["sent"] == 5  # 4 e-mails and Aki's push
    assert len(sent) == 1 and "has started" in sent[0][1] and f"/games/{game.pk}/" in sent[0][1]
    assert list(PushSubscription.objects.filter(user=four[0]).values_list("endpoint", flat=True)) == [
        f"https://push.example/{four[0].pk}/1"
    ]


def test_a_push_service_error_keeps_the_message_for_later(game, four, vapid, monkeypatch, clock):
    def down(subscription: dict[str, Any], data: str, ttl: int) -> None:
        raise ConnectionError("push service unreachable")

    monkeypatch.setattr(channels, "webpush", down)
    subscribe(four[0])
    step()
    message = OutboxMessage.objects.get(channel=OutboxMessage.Channel.PUSH)
    assert message.status == OutboxMessage.Status.PENDING and message.attempts == 1
    assert len(mail.outbox) == 4, "e-mail is not held up by push"


def test_a_library_error_for_one_browser_does_not_stop_the_others(game, four, vapid, monkeypatch, caplog):
    """pywebpush raising something else than WebPushException (here a TypeError, as a damaged
    subscription or a library bug may) for one browser: the other browsers and the other
    players' messages are still sent, the worker goes on, and one warning names what failed."""
    sent: list[str] = []

    def fake(subscription: dict[str, Any], data: str, ttl: int) -> None:
        if subscription["endpoint"].endswith("/2"):
            raise TypeError("library trouble")
        sent.append(subscription["endpoint"])

    monkeypatch.setattr(channels, "webpush", fake)
    subscribe(four[0], 1)
    subscribe(four[0], 2)
    subscribe(four[1], 1)
    with caplog.at_level("WARNING", logger="delve.notify"):
        counts = step()
    assert counts["sent"] == 6 and counts["failed"] == 0  # 4 e-mails and a push to each of two players
    assert sorted(sent) == sorted([f"https://push.example/{four[0].pk}/1", f"https://push.example/{four[1].pk}/1"])
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "TypeError: library trouble" in warnings[0], warnings
    assert PushSubscription.objects.count() == 3, "a browser failing for another reason than 404/410 is kept"


def test_a_refused_vapid_key_keeps_the_message_and_the_pass_goes_on(game, four, vapid, monkeypatch, caplog):
    """py_vapid's VapidException (a key or subject it refuses) escaped send_push: the pass
    stopped with the message claimed and the other players' messages unsent. Now the message
    waits for a later attempt, with one warning, and the rest of the pass is sent."""
    from py_vapid import VapidException

    calls: list[str] = []

    def refused(subscription: dict[str, Any], data: str, ttl: int) -> None:
        calls.append(subscription["endpoint"])
        raise VapidException("Missing 'sub' from claims.")

    monkeypatch.setattr(channels, "webpush", refused)
    subscribe(four[0], 1)
    subscribe(four[0], 2)
    with caplog.at_level("WARNING", logger="delve.notify"):
        counts = step()
    assert counts["sent"] == 4 and counts["failed"] == 1 and len(mail.outbox) == 4
    assert len(calls) == 1, "every browser would fail alike: the others are not tried"
    message = OutboxMessage.objects.get(channel=OutboxMessage.Channel.PUSH)
    assert message.status == OutboxMessage.Status.PENDING and message.claimed_until is None
    assert "the VAPID key or subject was refused: Missing 'sub' from claims." in message.last_error
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "VAPID key or subject was refused" in warnings[0], warnings
    assert PushSubscription.objects.count() == 2


@pytest.mark.parametrize(
    "damage",
    [{"p256dh": "k"}, {"auth": "a"}, {"endpoint": "https://bad host/x"}, {"endpoint": "https://user@push.example/x"}],
)
def test_a_damaged_stored_subscription_is_deleted_and_the_good_one_is_sent(game, four, vapid, monkeypatch, damage):
    """A subscription stored before the subscribe view checked the keys (or damaged since) can
    never be pushed to: it is deleted with a warning instead of failing the message again and
    again, and the player's other browser still gets it."""
    sent: list[str] = []
    monkeypatch.setattr(channels, "webpush", lambda sub, data, ttl: sent.append(sub["endpoint"]))
    good = subscribe(four[0], 1)
    bad = subscribe(four[0], 2)
    PushSubscription.objects.filter(pk=bad.pk).update(**damage)
    assert step()["sent"] == 5
    assert sent == [good.endpoint]
    assert list(PushSubscription.objects.filter(user=four[0])) == [good]


def test_a_push_service_answering_404_or_410_drops_the_subscription_for_good(game, four, vapid, monkeypatch, clock):
    """The only browser gone (404): the subscription is deleted and the message ends "gone"
    (nothing left to send it to), not retried."""
    from pywebpush import WebPushException

    class Response:
        status_code = 404

    def gone(subscription: dict[str, Any], data: str, ttl: int) -> None:
        raise WebPushException("Push failed: 404 Not Found", response=Response())

    monkeypatch.setattr(channels, "webpush", gone)
    subscribe(four[0])
    counts = step()
    assert counts["gone"] == 1 and counts["failed"] == 0
    assert OutboxMessage.objects.get(channel=OutboxMessage.Channel.PUSH).status == OutboxMessage.Status.GONE
    assert not PushSubscription.objects.exists()


def test_pywebpush_against_a_fake_push_service_drops_a_gone_browser_and_survives_a_bad_key(
    game, four, settings, monkeypatch
):
    """The real pywebpush (encrypting and signing) against a fake push service that answers 410
    for one browser and 201 for the other; then a private key pywebpush refuses (a VapidException
    inside the library) only postpones the next message."""
    import requests

    from delve.server.env import push_keys

    settings.DELVE_VAPID_PUBLIC_KEY, settings.DELVE_VAPID_PRIVATE_KEY = push_keys()
    settings.DELVE_VAPID_SUBJECT = "mailto:ops@example.org"
    posted: list[str] = []

    class Answer:
        def __init__(self, status: int) -> None:
            self.status_code, self.reason, self.text, self.headers = status, "", "", {}

    def service(url: str, **params: Any) -> Answer:
        posted.append(url)
        return Answer(410 if url.endswith("/2") else 201)

    monkeypatch.setattr(requests, "post", service)
    kept, gone = subscribe(four[0], 1), subscribe(four[0], 2)
    assert step()["sent"] == 5
    assert sorted(posted) == sorted([kept.endpoint, gone.endpoint])
    assert list(PushSubscription.objects.filter(user=four[0])) == [kept]
    settings.DELVE_VAPID_PRIVATE_KEY = "not a key"
    message = OutboxMessage.objects.create(
        user=four[0], channel=OutboxMessage.Channel.PUSH, subject="s", body="b", created_at=0, next_attempt_at=0
    )
    counts = outbox.deliver(10**10)
    message.refresh_from_db()
    assert counts["failed"] == 1 and message.status == OutboxMessage.Status.PENDING
    assert "VAPID key or subject was refused" in message.last_error
    assert PushSubscription.objects.filter(user=four[0]).count() == 1


def test_a_push_is_kept_a_day_for_an_offline_browser_or_until_the_deadline_it_tells_of(
    game, four, vapid, monkeypatch, clock
):
    """A push without a TTL (pywebpush's default 0) is dropped by the push service when the
    phone is offline. "Has started" is kept a day; "1 hour left" until its deadline; a "your turn"
    until the seat's deadline, at most a day."""
    ttls: dict[str, int] = {}
    monkeypatch.setattr(channels, "webpush", lambda sub, data, ttl: ttls.setdefault(json.loads(data)["title"], ttl))
    subscribe(four[0])
    step()
    assert ttls[f"#{game.pk} Fated Labyrinth has started"] == channels.PUSH_TTL == 24 * HOUR
    clock.t = START + HOUR
    settled()
    assert ttls[f"#{game.pk} Fated Labyrinth: your turn is ready"] == 24 * HOUR, "the deadline is 100 hours away"
    deadline = _deadline(game)
    clock.t = deadline - HOUR + 30
    step()
    assert ttls[f"#{game.pk} Fated Labyrinth: 1 hour left to act"] == HOUR - 30


def test_a_push_request_carries_its_ttl_header(settings, monkeypatch):
    """The real request pywebpush builds (encrypted for a browser's keys, signed with the VAPID
    key): its ``TTL`` header is the one given."""
    import base64

    import requests
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    server = ec.generate_private_key(ec.SECP256R1())
    settings.DELVE_VAPID_PRIVATE_KEY = b64(server.private_numbers().private_value.to_bytes(32, "big"))
    settings.DELVE_VAPID_SUBJECT = "mailto:delve@example.org"
    browser = ec.generate_private_key(ec.SECP256R1()).public_key()
    subscription = {
        "endpoint": "https://push.example/abc",
        "keys": {
            "p256dh": b64(browser.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)),
            "auth": b64(b"0" * 16),
        },
    }
    sent: list[dict[str, Any]] = []

    class Accepted:
        status_code, text, headers = 201, "", {}

    def post(url: str, **params: Any) -> Accepted:
        sent.append({"url": url, **params})
        return Accepted()

    monkeypatch.setattr(requests, "post", post)
    channels.webpush(subscription, json.dumps({"title": "t"}), 3600)
    [request] = sent
    assert request["url"] == "https://push.example/abc" and request["headers"]["ttl"] == "3600"
    assert request["headers"]["authorization"].startswith("vapid t=")


def test_the_worker_loop_runs_the_notification_pass(game, four):
    from delve.server.games.worker import Worker

    counts = Worker(name="loop").run_notifications()
    assert counts["notices"] == 4 and counts["sent"] == 4


def test_the_end_mail_names_the_outcome_and_links_the_replay_FL_WIN_7(game, four, clock):
    """The "has ended" mail read "#2 Level D has ended: alice lost." and a link: it tells the
    outcome of the game as the replay's last step does (the winner and how, the others lost;
    FL-WIN-7), the reader's own seat, and links the replay besides the game; in each language."""
    from delve.fated import text as fated_text

    Preference.objects.update_or_create(user=four[1], defaults={"language": "ja"})
    everyone_gives_up(game, four)
    names = [seat.name for seat in game.seats.order_by("index")]
    [english] = mails_to(four[0].email, "has ended")
    assert f"/games/{game.pk}/replay/" in english.body and f"/games/{game.pk}/" in english.body
    outcome = Notice.objects.get(user=four[0], kind="ended").data["outcome"]
    assert outcome["en"] in english.body and "You played " in english.body
    assert "abandoned" not in english.body and "won_" not in english.body, "a result in words, not its id"
    assert outcome["en"] in {
        fated_text.game_result(None, None, "en", losers=names),
        *(
            fated_text.game_result(w, "survivor", "en", losers=[n for n in names if n != w], prefix=False)
            for w in names
        ),
    }, outcome["en"]
    [japanese] = mails_to(four[1].email, "終わりました")
    assert (
        outcome["ja"] in japanese.body and "リプレイ" in japanese.body and f"/games/{game.pk}/replay/" in japanese.body
    )


def test_a_white_maiden_end_mail_tells_the_tables_win_or_loss():
    """White Maiden's "has ended" mail says the table's result: every maiden won, or lost."""
    from django.utils import translation

    from delve.server.notify import text
    from delve.server.records.replay import outcome_sentence

    game = Game(ruleset="maiden", preset="white-maiden")
    with translation.override("en"):
        assert outcome_sentence(game, {"0": "won", "1": "won"}, "en", ["Ann", "Bo"]) == "Ann and Bo won."
        lost = outcome_sentence(game, {"0": "lost", "1": "lost"}, "en", ["Ann", "Bo"])
    assert lost == "Ann and Bo lost."
    with translation.override("ja"):
        assert outcome_sentence(game, {"0": "lost", "1": "lost"}, "ja", ["Ann", "Bo"]) == "Ann、Boは敗北。"
    data = {"game": {"en": "#3 White Maiden"}, "name": "Ann", "result": "lost", "outcome": {"en": lost}, "replay": "R"}
    _subject, body = text.render("ended", data, "en")
    assert body == "#3 White Maiden has ended: Ann and Bo lost. You played Ann: lost.\nThe replay, step by step: R"


@pytest.mark.parametrize(
    ("preset", "en", "ja"),
    [("fated-labyrinth", "gave up", "放棄しました"), ("level-d", "resigned", "投了しました")],
)
def test_the_end_mail_says_a_give_up_in_the_presets_words_P_33(preset, en, ja):
    """P-33: a seat given up reads as its preset says it, as the records and the standings do:
    Level D "resigned" / 投了, Fated Labyrinth "gave up" / 放棄; the mail of a real end carries
    the preset for it."""
    from delve.server.notify import text

    data = {
        "game": {"en": "#2 Level D"},
        "name": "Aki",
        "result": "abandoned",
        "preset": preset,
        "outcome": {"en": "Dan won.", "ja": "Danの勝利。"},
        "replay": "R",
    }
    assert f"You played Aki: {en}." in text.render("ended", data, "en")[1]
    assert f"あなたのAkiは{ja}。" in text.render("ended", data, "ja")[1]
    data.pop("preset")  # a notice stored before the preset was carried: the general words
    assert "You played Aki: gave up." in text.render("ended", data, "en")[1]


def test_a_real_end_mail_carries_the_preset(game, four, clock):
    """The "has ended" notices of a Fated Labyrinth game carry its preset (for P-33's words)."""
    everyone_gives_up(game, four)
    assert {n.data.get("preset") for n in Notice.objects.filter(kind="ended")} == {game.preset}
