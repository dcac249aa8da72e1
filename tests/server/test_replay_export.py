"""Export, verifiable dice and replays of finished games (issue 15): the seed's SHA-256 public from
the start and the seed revealed at the end; ``delve verify`` replays an export and confirms every
event, and refuses a tampered one; the replay page shows each step with everything revealed."""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from delve.cli import main
from delve.kernel import DelveError, SeatInfo, get_ruleset
from delve.server import clock as server_clock
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.games.worker import Worker
from delve.server.records.verify import LogEntry, seed_hash, steps, verify
from tests.server.conftest import START, FakeClock, session_client
from tests.server.fated_kit import bot_table, run_worker

MINUTE = 60
#: Every test here uses the database (also those that only read the module's finished game, made
#: outside their transactions): pytest-django creates the tables for the tests that declare it.
pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("ann", "bob", "cid", "dan")]


def bot_game(users: list[Any], clock: Any, passes: int = 40) -> Game:
    """A Level D game of four bots on a 9x9 maze, played by the worker on the fake clock; the
    survivors give up after ``passes`` passes so the game ends (and the log has every source)."""
    game = run_worker(bot_table(users, "level-d"), clock, Worker(name="replay-test"), passes)
    for user in users:
        game.refresh_from_db()
        if game.status == Game.Status.RUNNING:
            clock.tick(1)
            try:
                engine.submit(game.pk, user, {"kind": "give_up"})
            except DelveError:  # a dead character cannot give up: the next one does
                continue
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    engine.submit(game.pk, users[0], {"kind": "comment", "text": "gg"})  # comments go on after the end
    game.refresh_from_db()
    return game


@pytest.fixture(scope="module")
def ended(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Game]:
    """One finished bot game for the whole module (made once: it takes seconds), read-only."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        fake = FakeClock(START)
        patch.setattr(server_clock, "now", fake)
        users = [get_user_model().objects.create_user(f"replay-{n}") for n in range(4)]
        game = bot_game(users, fake)
        try:
            yield game
        finally:
            Game.objects.filter(pk=game.pk).delete()
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()


def export_of(game: Game) -> dict[str, Any]:
    response = Client().get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200 and response["Content-Disposition"].endswith(f'delve-game-{game.pk}.json"')
    return json.loads(response.content)


# --- export and verify -----------------------------------------------------------------------------


def test_an_export_verifies_and_delve_verify_confirms_it(ended, tmp_path, capsys):
    export = export_of(ended)
    sources = {c["source"] for c in export["commands"]}
    assert {"player", "clock"} <= sources, "the log has commands and clock advances"
    assert any(e["to"] is not None for e in export["events"]), "private events are in the export, revealed"
    verdict = verify(export)
    assert verdict.ok, verdict.problems
    assert verdict.events == len(export["events"]) == ended.event_count
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: ") and str(ended.seed) in out and seed_hash(ended.seed) in out


def tampered(export: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copied = copy.deepcopy(export)
    change(copied)
    return copied


def first_player_command(export: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in export["commands"] if c["source"] == "player" and c["command"]["kind"] == "move")


def timed_player_command(export: dict[str, Any]) -> dict[str, Any]:
    """A player's command that produced events on replay: their times are its time (a command that
    leaves no trace replays the same at any time, so moving it would prove nothing)."""
    game = export["game"]
    seats = [SeatInfo(name=seat["name"], options=dict(seat["options"])) for seat in export["seats"]]
    log = [
        LogEntry(time=c["time"], seat=c.get("seat"), command=c.get("command"), source=c.get("source", ""))
        for c in export["commands"]
    ]
    ruleset = get_ruleset(game["ruleset"])
    for step in steps(ruleset, game["settings"], seats, export["seed"], int(game["started_at"]), log):
        if step.entry is not None and step.entry.source == "player" and step.entry.command and step.events:
            return export["commands"][step.index - 1]
    raise AssertionError("no player command produced an event")


def shift_time(command: dict[str, Any]) -> None:
    command["time"] += 1


@pytest.mark.parametrize(
    ("what", "change", "reason"),
    [
        ("seed", lambda e: e.update(seed=e["seed"] + 1), "does not match the SHA-256"),
        (
            "seed and hash",
            lambda e: e.update(seed=e["seed"] + 1, seed_sha256=seed_hash(e["seed"] + 1)),
            "",  # another maze: an event differs or a command no longer replays
        ),
        ("an event's data", lambda e: e["events"][-2]["data"].update(forged=1), "differs"),
        ("an event's audience", lambda e: e["events"][1].update(to=None if e["events"][1]["to"] else [0]), "differs"),
        ("a dropped event", lambda e: e["events"].pop(), "events, the replay gives"),
        ("a command's time", lambda e: shift_time(timed_player_command(e)), ""),
        ("the final state", lambda e: e.update(final_state_sha256="0" * 64), "final state"),
        ("the format", lambda e: e.update(format="other/9"), "not a delve-export/1 export"),
        ("a missing part", lambda e: e.pop("commands"), "incomplete or malformed"),
    ],
)
def test_a_tampered_export_is_refused(ended, what, change, reason):
    export = export_of(ended)
    verdict = verify(tampered(export, change))
    assert not verdict.ok, what
    assert reason in verdict.problems[0]


def test_delve_verify_refuses_a_forged_command_and_says_why(ended, tmp_path, capsys):
    export = export_of(ended)
    move = first_player_command(export)
    move["command"] = {"kind": "move", "dir": "nowhere"}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(export))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("REFUSED: the command log does not replay")
    path.write_text("{not json")
    assert main(["verify", str(path)]) == 1
    assert main(["verify", str(tmp_path / "missing.json")]) == 2


def test_a_running_game_has_no_export_and_no_replay_and_hides_its_seed(db, clock, four):
    game = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 9})
    for index, user in enumerate(four):
        engine.register(game.pk, user, f"P{index}", {"class": "thief"})
    for path in ("export.json", "replay/"):
        response = Client().get(f"/games/{game.pk}/{path}")
        assert response.status_code == 404
        page = response.content.decode()
        assert "The replay and the export open when the game ends" in page  # not "this page does not exist"
        assert f'href="/games/{game.pk}/"' in page and str(game.seed) not in page
    ja = Client().get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "リプレイとエクスポートはゲームの終了後に公開されます" in ja
    api = Client().get(f"/api/v1/games/{game.pk}").json()["game"]
    assert api["seed_sha256"] == seed_hash(game.seed) and api["seed"] is None
    page = session_client(four[0]).get(f"/games/{game.pk}/").content.decode()
    assert seed_hash(game.seed) in page and str(game.seed) not in page.replace(seed_hash(game.seed), "")


def test_the_seed_is_revealed_at_the_end(ended):
    api = Client().get(f"/api/v1/games/{ended.pk}").json()["game"]
    assert api["seed"] == ended.seed and api["seed_sha256"] == seed_hash(ended.seed)
    page = Client().get(f"/games/{ended.pk}/").content.decode()
    assert f"/games/{ended.pk}/replay/" in page and f"<code>{ended.seed}</code>" in page


def test_a_white_maiden_game_played_by_its_autopilot_exports_and_verifies(db, clock, four):
    game = engine.create_game("maiden", "white-maiden", {"players": 2, "start_player": 0, "turn_deadline_hours": 1})
    engine.register(game.pk, four[0], "Ann")
    engine.register(game.pk, four[1], "Bob")
    worker = Worker(name="autopilot")
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.ENDED:
            break
        clock.t = max(clock.t, game.next_due_at or clock.t)
        worker.run_once()
    assert game.status == Game.Status.ENDED
    verdict = verify(export_of(game))
    assert verdict.ok, verdict.problems


def test_a_white_maiden_replay_names_each_command_in_the_words_of_its_button(db, clock, four):
    """The replay of a White Maiden game shows each command as its button read, for the state its
    seat chose it in (the familiar, the stat, the card kept by name, the room, the dice), never
    the raw command."""
    from tests.server.maiden_kit import first_choice, maiden_game, play_until, state

    def inspired(commands: list[dict[str, Any]]) -> dict[str, Any]:  # cards on Inspiration: draws to keep from
        return next((c for c in commands if c.get("stat") == "ins"), None) or first_choice(commands)

    game = maiden_game(four[:2])
    play_until(game, four[:2], lambda v: v["round"] >= 3, policy=inspired)
    current = state(game)
    current.round = 24
    current.turn_index = len(current.order) - 1
    Game.objects.filter(pk=game.pk).update(state=engine.ruleset_of(game).encode(current).decode())
    # the edit is not in the log: the steps looked at below are the commands before it
    log = list(game.commands.order_by("sequence"))
    headings = []
    for step, entry in enumerate(log, start=1):  # step N: the game after the log's first N entries
        if entry.seat is None or not entry.command:
            continue
        headings.append((step, entry.command))
    assert len(headings) > 20
    play_until(game, four[:2], lambda v: v["ended"], limit=300, policy=inspired)
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    words = []
    for step, command in headings:
        page = html.unescape(Client().get(f"/games/{game.pk}/replay/?step={step}").content.decode())
        heading = re.search(r"<h2>(\w+) acts: ([^<]*)</h2>", page)
        assert heading is not None, (step, command)
        assert not heading[2].startswith("{"), (step, heading[2])  # words, not the raw command
        words.append(heading[2])
    assert any(w.startswith("Roll ") for w in words) and any(w.startswith("Move to ") for w in words)
    assert any(re.fullmatch(r"On (Piety|Will|Agility|Inspiration)", w) for w in words)
    assert any(w.startswith("Keep ") and w != "Keep this card" for w in words)


# --- the replay page -------------------------------------------------------------------------------


def test_the_replay_steps_through_the_log_with_everything_revealed(ended):
    log = list(ended.commands.order_by("sequence"))
    start = Client().get(f"/games/{ended.pk}/replay/")
    assert start.status_code == 200
    html = start.content.decode()
    assert "The game is set up" in html and "The game started: Bot1, Bot2, Bot3 and Bot4." in html
    ruleset = engine.ruleset_of(ended)
    seats = engine.seat_infos(list(ended.seats.order_by("index")))
    entries = [LogEntry(time=c.time, seat=c.seat, command=c.command, source=c.source) for c in log]
    replayed = steps(ruleset, ended.settings, seats, ended.seed, ended.started_at, entries)
    private_step = next(step.index for step in replayed if any(event.to for event in step.events))
    html = Client().get(f"/games/{ended.pk}/replay/?step={private_step}").content.decode()
    assert "seen by Bot" in html, "private events are shown, with who saw them"
    end = Client().get(f"/games/{ended.pk}/replay/?step={len(log) - 1}").content.decode()
    assert "The game has ended" in end
    last = Client().get(f"/games/{ended.pk}/replay/?step={len(log)}").content.decode()
    assert "gg" in last and f'value="{len(log)}"' in last, "the comment after the end is the last step"


def test_the_replay_tells_private_messages_in_the_third_person_FL_INFO_5(ended):
    """FL-INFO-5: a private message is written to its seat ("You drew 1 card."); the replay's
    reader is not that seat, so it reads the message about the seat by name ("Bot drew 1 card.",
    "Botがカードを1枚引いた。"), marked with who saw it, in English and Japanese."""
    ruleset = engine.ruleset_of(ended)
    seats = list(ended.seats.filter(index__isnull=False).order_by("index"))
    names = [seat.name for seat in seats]
    log = list(ended.commands.order_by("sequence"))
    entries = [LogEntry(time=c.time, seat=c.seat, command=c.command, source=c.source) for c in log]
    replayed = steps(ruleset, ended.settings, engine.seat_infos(seats), ended.seed, ended.started_at, entries)
    step, drawn = next(
        (step.index, event) for step in replayed for event in step.events if event.kind == "cards.drawn" and event.to
    )
    who = names[drawn.to[0]]
    count = len(drawn.data["cards"])
    lines_of = {}
    for lang in ("en", "ja"):
        client = Client()
        client.cookies["django_language"] = lang
        page = html.unescape(client.get(f"/games/{ended.pk}/replay/?step={step}").content.decode())
        lines_of[lang] = re.findall(r"<li>(.*?)</li>", page.split('<ol class="events">')[1].split("</ol>")[0], re.S)
    english = " ".join(lines_of["en"])
    assert f"{who} drew {count} card{'s' if count != 1 else ''}." in english
    assert not re.search(r"\b(You|Your|you|your)\b", english), english
    japanese = " ".join(lines_of["ja"])
    assert f"{who}がカードを{count}枚引いた。" in japanese and "あなた" not in japanese, japanese


def test_the_replay_speaks_japanese(ended):
    client = Client()
    client.cookies["django_language"] = "ja"
    entries = list(ended.commands.order_by("sequence"))
    # step N shows the game after N log entries: the first move's own step is its place + 1
    move = next(n for n, c in enumerate(entries, start=1) if c.command and c.command["kind"] == "move")
    page = html.unescape(client.get(f"/games/{ended.pk}/replay/?step={move}").content.decode())
    assert "移動" in page
    # the heading is one Japanese sentence: the name as written, the full-width colon
    heading = re.search(r"<h2>([^<]*)</h2>", page.split('class="game replay-step"')[1])
    assert heading is not None and re.fullmatch(r"\S+の行動：\S.*", heading[1]), heading
    assert "の行動:" not in page and " の行動" not in page


@pytest.mark.parametrize("step", ["-1", "x", "99999", "1.5"])
def test_a_step_outside_the_log_is_refused_with_a_reason(ended, step):
    response = Client().get(f"/games/{ended.pk}/replay/?step={step}")
    assert response.status_code == 400 and "Choose a step from 0 to" in response.content.decode()


def test_the_replay_state_matches_the_stored_final_state(ended):
    from delve.kernel import state_hash

    html = Client().get(f"/games/{ended.pk}/replay/?step={ended.commands.count()}").content.decode()
    ruleset = engine.ruleset_of(ended)
    assert state_hash(ruleset, engine.load_state(ended, ruleset))[:16] in html


def test_the_replay_shows_the_card_piles_as_card_numbers(ended):
    """The whole state is shown field by field: the card piles are lists of card numbers, not the
    packed text the state row stores."""
    import html as markup
    import re

    page = Client().get(f"/games/{ended.pk}/replay/?step={ended.commands.count()}").content.decode()
    found = re.search(r'<pre class="view">(.*?)</pre>', page, re.S)
    assert found is not None
    shown = json.loads(markup.unescape(found.group(1)))
    ruleset = engine.ruleset_of(ended)
    final = engine.load_state(ended, ruleset)
    assert (shown["deck"], shown["discard"]) == (list(final.deck), list(final.discard))
    assert shown["deck"] and all(isinstance(card, int) for card in shown["deck"])
    assert not isinstance(json.loads(ruleset.encode(final))["deck"], list)  # the row stores it packed


def test_export_file_name_is_safe(tmp_path: Path) -> None:
    assert seed_hash(5) == "ef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d"


def test_an_ascension_is_named_by_its_faces_not_only_its_positions_MV_ASC_1():
    """MV-ASC-1: an ascension removes a pair of equal dice; its words name the pair's faces
    first ("dice 1 and 2" alone reads like the faces 1 and 2)."""
    from types import SimpleNamespace

    from django.utils import translation

    from delve.server.play.maiden_screen import command_label

    screen = SimpleNamespace(view={"check": {"dice": [{"face": 5}, {"face": 2}, {"face": 5}]}}, lang="en")
    with translation.override("en"):
        assert command_label(screen, {"kind": "ascend", "dice": [0, 2]}) == "Ascend the pair of 5s (dice 1 and 3)"
    with translation.override("ja"):
        assert command_label(screen, {"kind": "ascend", "dice": [0, 2]}) == "5のゾロ目でアセンション（サイコロ1と3）"
    bare = SimpleNamespace(view={}, lang="en")
    with translation.override("en"):
        assert command_label(bare, {"kind": "ascend", "dice": [0, 2]}) == "Ascend dice 1 and 3"


def test_the_replay_maze_explains_every_mark_it_shows(ended):
    """Every character the replay's whole-maze drawing uses is in its legend (the checkpoints,
    ice, doors and walls too), in both languages."""
    last = ended.commands.count()
    for lang in ("en", "ja"):
        page = Client().get(f"/games/{ended.pk}/replay/?step={last}", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        board = html.unescape(re.search(r'<pre class="maze"[^>]*>(.*?)</pre>', page, re.S)[1])
        legend = html.unescape(re.search(r'<p class="practice maze-legend">(.*?)</p>', page, re.S)[1])
        for mark in set(board) - {"\n"}:
            shown = "1" if mark.isdigit() else mark  # players: "1–9"
            assert f"{shown} " in legend or f"{shown}〜" in legend or f"{shown}–" in legend, (lang, mark)
        from delve.fated.grid import TERRAIN

        for mark in {*TERRAIN, "^", "M"}:  # every mark the drawing can use, also those not on this board
            assert f"{mark} " in legend, (lang, mark)


def test_the_replay_tells_the_end_once_in_players_words_FL_WIN_7(ended):
    """FL-WIN-5/6/7: the last step said "The game ended: ." (the engine's end, which holds no
    results) and then "The game ended: Bot1 lost, Bot2 won_survivor, ..." (the stored result
    codes). It tells the end once, in the game screen's words: who won and how, the others lost."""
    log = list(ended.commands.order_by("sequence"))
    names = [s.name for s in ended.seats.filter(index__isnull=False).order_by("index")]
    for lang in ("en", "ja"):
        client = Client()
        client.cookies["django_language"] = lang
        page = html.unescape(client.get(f"/games/{ended.pk}/replay/?step={len(log) - 1}").content.decode())
        assert "won_" not in page.split("<pre")[0] and " lost," not in page
        assert "The game ended: ." not in page and "ゲーム終了：。" not in page
        sentences = re.findall(r"(?:The game has ended|ゲーム終了)[^<]*", page)
        assert len(sentences) == 1, sentences
        (sentence,) = sentences
        if lang == "en":
            assert re.search(r"won as the last survivor|escaped and won|no winner", sentence), sentence
            assert " lost." in sentence
        else:
            assert re.search(r"最後の生存者として勝利|脱出して勝利|勝者なし", sentence), sentence
            assert "は敗北しました" in sentence
        assert all(name in sentence for name in names)


def test_the_replay_end_sentence_in_each_ruleset_FL_WIN_7(ended):
    """The server's end-of-game event in words, English and Japanese: Fated Labyrinth's in the
    end-of-game standings' words, other rulesets' winners and losers by name."""
    from django.utils import translation

    from delve.server.records.replay import describe

    names = ["Aldra", "Bolt", "ケンジ", "Tara"]
    data = {"winners": [2], "results": {"0": "lost", "1": "lost", "2": "won_escape", "3": "abandoned"}}
    assert describe(ended, "game.ended", data, 0, "en", names) == (
        "The game has ended: ケンジ escaped and won; Aldra, Bolt and Tara lost."
    )
    assert describe(ended, "game.ended", data, 0, "ja", names) == (
        "ゲーム終了：ケンジが脱出して勝利しました。Aldra、Bolt、Taraは敗北しました。"
    )
    data = {"winners": [0], "results": {"0": "won_survivor", "1": "lost"}}
    assert describe(ended, "game.ended", data, 0, "en", names[:2]) == (
        "The game has ended: Aldra won as the last survivor; Bolt lost."
    )
    maiden = Game(ruleset="maiden", preset="rulebook")
    with translation.override("ja"):
        assert describe(maiden, "game.ended", {"results": {"0": "won", "1": "won"}}, 0, "ja", names[:2]) == (
            "ゲーム終了：Aldra、Boltの勝利。"
        )
    with translation.override("en"):
        assert describe(maiden, "game.ended", {"results": {"0": "lost"}}, 0, "en", names[:1]) == (
            "The game ended: Aldra lost."
        )


def test_a_list_of_names_in_the_replay_reads_as_a_sentence_in_english_and_japanese(ended):
    """White Maiden's end and start in the replay listed names with bare commas ("Ann, Bob
    lost."): English says "and" before the last name ("Ann and Bob lost.", "Ann, Bob and Cy"),
    Japanese keeps 「、」."""
    from django.utils import translation

    from delve.server.records.replay import describe

    maiden = Game(ruleset="maiden", preset="rulebook")
    lost = {"results": {"0": "lost", "1": "lost"}}
    three = {"results": {"0": "won", "1": "won", "2": "won"}}
    names = ["Ann", "Bob", "Cy"]
    with translation.override("en"):
        assert describe(maiden, "game.ended", lost, 0, "en", names[:2]) == "The game ended: Ann and Bob lost."
        assert describe(maiden, "game.ended", three, 0, "en", names) == "The game ended: Ann, Bob and Cy won."
        assert describe(maiden, "game.started", {}, 0, "en", names) == "The game started: Ann, Bob and Cy."
    with translation.override("ja"):
        assert "Ann、Bob" in describe(maiden, "game.ended", lost, 0, "ja", names[:2])
        assert "Ann、Bob、Cy" in describe(maiden, "game.started", {}, 0, "ja", names)
