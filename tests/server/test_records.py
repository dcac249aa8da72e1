"""Personal records (FL-REC, FL-WIN-7, AMB-61): written once when a game ends, only for seats that
keep records; a records page and API."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from delve.kernel import GameOutcome
from delve.server.games import engine
from delve.server.records.models import Record
from delve.server.records.services import write_records
from tests.server.test_commands import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def practice_game(db, clock, make_game, player, opponent):
    """Ann keeps records; Bob plays for practice (the box unchecked)."""
    game = make_game()
    engine.register(game.pk, player, "Ann", {"colour": "blue"})
    engine.register(game.pk, opponent, "Bob", keep_record=False)
    return game


def test_records_are_written_when_the_game_ends_only_for_seats_that_keep_them(practice_game, player, opponent, clock):
    """FL-REC-1, FL-REC-2 (the flag changes nothing in the game), FL-WIN-7."""
    assert not Record.objects.exists()
    finish(practice_game, player, clock)
    record = Record.objects.get()
    assert record.user == player and not opponent.records.exists()
    assert (record.game, record.ruleset, record.preset) == (practice_game, "toy", "toy")
    assert (record.character_name, record.options, record.result, record.won) == (
        "Ann",
        {"colour": "blue"},
        "won",
        True,
    )
    assert record.ended_at.timestamp() == clock.t


def test_records_are_written_exactly_once(practice_game, player, clock):
    finish(practice_game, player, clock)
    engine.submit(practice_game.pk, player, {"kind": "comment", "text": "gg"})  # a change after the end
    assert Record.objects.count() == 1


def test_a_record_keeps_what_the_ruleset_reports(practice_game, player, opponent, clock):
    """FL-REC-4, AMB-61: date, preset, class, result, kills, treasures, turns (from ``stats``)."""
    seats = list(practice_game.seats.order_by("id"))
    for index, seat in enumerate(seats):
        seat.index = index
    outcome = GameOutcome(
        ended=True,
        winners=(),
        results={0: "abandoned", 1: "lost"},
        stats={0: {"class": "thief", "kills": 2, "treasures": 1, "turns": 17, "extra": "kept"}},
    )
    write_records(practice_game, seats, outcome, clock.t)
    record = Record.objects.get(user=player)
    assert (record.result, record.character_class, record.kills, record.treasures, record.turns) == (
        "abandoned",
        "thief",
        2,
        1,
        17,
    )
    assert record.stats["extra"] == "kept"


def test_the_records_pages(client, practice_game, player, spectator, clock):
    finish(practice_game, player, clock)
    assert client.get("/records/").status_code == 302  # log in first
    public = client.get("/records/ann/").content.decode()
    assert "Personal records of ann" in public and "Ann" in public and "won" in public
    assert "1 game recorded" in public
    client.force_login(spectator)
    assert "No recorded game yet." in client.get("/records/").content.decode()
    assert client.get("/records/nobody/").status_code == 200  # no enumeration: see test_security.py


@pytest.mark.parametrize("name", ["spectator_user", "nosuchuser"])
def test_an_empty_records_page_of_another_name_does_not_claim_a_player(client, spectator, name):
    """/records/nosuchuser/ read "Personal records of nosuchuser — 0 games recorded", as if such a
    player existed. Which names exist stays untold (the same page for a player without games and
    for nobody, tests/server/test_security.py), so the page says no game is recorded under the
    name and that this does not tell whether anybody has it; no count of 0 games."""
    name = spectator.get_username() if name == "spectator_user" else name
    for lang, words in (
        ("en", f"No recorded game under the name “{name}”."),
        ("ja", f"「{name}」という名前で記録されたゲームはありません。"),
    ):
        page = client.get(f"/records/{name}/", HTTP_ACCEPT_LANGUAGE=lang)
        body = page.content.decode()
        assert page.status_code == 200 and words in unescape(body)
        assert "0 games recorded" not in body and "記録したゲーム 0 件" not in body


def test_the_records_api(practice_game, personas, player, clock):
    finish(practice_game, player, clock)
    body = personas["outsider"].get("/api/v1/records/ann").json()
    assert body["user"] == "ann"
    [record] = body["records"]
    assert record["result"] == "won" and record["won"] is True and record["game"] == practice_game.pk
    assert record["stats"] == Record.objects.get(user=player).stats  # all the ruleset reported
    assert personas["player"].get("/api/v1/records").json() == body
    assert personas["opponent"].get("/api/v1/records").json()["records"] == []


def test_practice_seats_show_the_practice_marker(client, practice_game):
    """FL-REC-3: a seat that keeps no record is marked in the players panel."""
    page = client.get(f"/games/{practice_game.pk}/").content.decode()
    assert page.count('class="practice"') == 1
    ja = client.get(f"/games/{practice_game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ">練<" in ja


def test_the_records_page_shows_words_not_stored_ids_FL_REC_1(client, player):
    """FL-REC-1: the page shows the preset's title, the class as the preset names it and the
    result in words, in the reader's language; the API keeps the stable ids."""
    from django.utils import timezone

    from delve.fated import text

    for preset, cls, result in (("fated-labyrinth", "explorer", "won_escape"), ("level-d", "cat", "abandoned")):
        Record.objects.create(
            user=player,
            ruleset="fated",
            preset=preset,
            character_name="Ann",
            character_class=cls,
            result=result,
            won=result.startswith("won"),
            ended_at=timezone.now(),
        )
    html = client.get("/records/ann/").content.decode()
    for raw in ("won_escape", "fated-labyrinth", "explorer", ">abandoned<"):
        assert raw not in html
    assert "Won (escaped)" in html and "Fated Labyrinth" in html and "Resigned" in html
    assert text.class_name("explorer", "en", "fated-labyrinth") in html
    assert text.class_name("cat", "en", "level-d") in html  # Level D's name for the class
    ja = client.get("/records/ann/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "勝利（脱出）" in ja and "投了" in ja


def test_recently_ended_games_name_their_winner(client, practice_game, player, clock):
    """FL-WIN-7: the top page's "Recently ended" list says who won each game."""
    finish(practice_game, player, clock)
    practice_game.refresh_from_db()
    from delve.server.games import present

    outcome = present.outcome_dict(practice_game)
    assert outcome is not None
    seat = next(s for s in present.public_seats(practice_game) if s.index in outcome["winners"])
    html = client.get("/").content.decode()
    ended = html.split("Recently ended")[1]
    assert f"won by {seat.number} {seat.name}" in ended


def test_white_maiden_records_show_the_games_summary_and_every_record_links_its_game(client, practice_game, player):
    """FL-REC-4, MV-END-3: a White Maiden record shows what its game reports (rounds, bosses
    defeated, areas freed, deaths with the seat's own, danger level), not Fated Labyrinth's
    kills, treasures and turns; each record's date links to its game (its end screen and replay)."""
    from django.utils import timezone

    summary = {"rounds": 24, "bosses_defeated": 4, "areas_freed": 12, "deaths": 38, "danger_level": 3}
    Record.objects.create(
        user=player,
        game=practice_game,
        ruleset="maiden",
        preset="white-maiden",
        character_name="Ann",
        result="lost",
        stats={**summary, "rooms_explored": 57, "deaths_own": 23},
        ended_at=timezone.now(),
    )
    Record.objects.create(
        user=player,
        ruleset="fated",
        preset="fated-labyrinth",
        character_name="Ann",
        character_class="thief",
        result="won_escape",
        won=True,
        kills=2,
        treasures=1,
        turns=17,
        ended_at=timezone.now(),
    )
    page = client.get("/records/ann/").content.decode()
    html = re.sub(r' data-label="[^"]*"', "", page)
    assert "2 games recorded, 1 won." in html
    fated, maiden = html.split("<h2>Fated Labyrinth and Level D</h2>")[1].split("<h2>White Maiden</h2>")
    assert "<th>Kills</th>" in fated and "<td>2</td><td>1</td><td>17</td>" in fated
    assert "<th>Bosses defeated</th>" in maiden and "<th>Kills</th>" not in maiden
    assert "<td>Lost</td><td>24</td><td>4</td><td>12</td><td>38 (23)</td><td>3</td>" in maiden
    assert f'<a href="/games/{practice_game.pk}/">' in maiden
    assert "<a href" not in fated.split("<tbody>")[1]  # a record whose game is gone has no link
    ja = re.sub(r' data-label="[^"]*"', "", client.get("/records/ann/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "<h2>白き乙女</h2>" in ja and "死亡数（うちann）" in ja and "<td>敗北</td>" in ja


def test_the_deaths_column_names_whose_deaths_are_in_brackets(client, player, opponent):
    """MV-END-3, FL-REC-4: the bracketed number is the page owner's deaths: "yours" on one's own
    page, the owner's name on anyone else's (also for a visitor), in English and Japanese."""
    from django.utils import timezone

    Record.objects.create(
        user=player,
        ruleset="maiden",
        preset="white-maiden",
        character_name="Ann",
        result="lost",
        stats={"rounds": 24, "deaths": 5, "deaths_own": 2},
        ended_at=timezone.now(),
    )

    def heading(viewer: Any, lang: str) -> str:
        page = viewer.get("/records/ann/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        found = re.findall(r"<th>(死亡数[^<]*|Deaths[^<]*)</th>", page)
        assert len(found) == 1, found
        return unescape(found[0])

    assert heading(client, "en") == "Deaths (ann's)" and heading(client, "ja") == "死亡数（うちann）"
    own = Client()
    own.force_login(player)
    assert heading(own, "en") == "Deaths (yours)" and heading(own, "ja") == "死亡数（うちあなた）"
    mine = own.get("/records/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<th>Deaths (yours)</th>" in mine
    other = Client()
    other.force_login(opponent)
    assert heading(other, "en") == "Deaths (ann's)" and heading(other, "ja") == "死亡数（うちann）"


def test_on_a_phone_every_record_cell_names_its_column(client, player):
    """FL-REC-4: on a phone the records table becomes one card per game, each line labelled
    (site.css reads the label from data-label): every cell carries its column's heading, in the
    reader's language."""
    from django.utils import timezone

    Record.objects.create(
        user=player,
        ruleset="maiden",
        preset="white-maiden",
        character_name="Ann",
        result="won",
        won=True,
        stats={"rounds": 20},
        ended_at=timezone.now(),
    )
    Record.objects.create(
        user=player,
        ruleset="fated",
        preset="level-d",
        character_name="Ann",
        character_class="cat",
        result="abandoned",
        ended_at=timezone.now(),
    )
    for lang, heading in (("en", "Rounds played"), ("ja", None)):
        html = client.get("/records/ann/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        tables = re.findall(r"<table class=\"records[^\"]*\">(.*?)</table>", html, re.S)
        assert len(tables) == 2
        for table in tables:
            heads = re.findall(r"<th>(.*?)</th>", table)
            rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody>")[1], re.S)
            assert rows
            for row in rows:
                assert re.findall(r'<td data-label="([^"]*)">', row) == heads
        if heading:
            assert f'data-label="{heading}"' in html
    assert 'data-label="日付"' in html  # the last page read is the Japanese one
    assert "記録したゲーム 2 件、うち 1 勝。" in html  # one sentence, Japanese punctuation
    import delve.server

    css = (Path(delve.server.__file__).parent / "static" / "delve" / "site.css").read_text()
    assert "content: attr(data-label)" in css
