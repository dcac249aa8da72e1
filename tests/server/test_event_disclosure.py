"""Every event body that leaves the server goes through the ruleset's one allow-list (FL-INFO-3..5,
design "deny-list secret stripping" avoided): the events API, the API view's events and messages,
command answers (also replayed ones), the generic page and the Fated screen. A trap's hit never
names its setter, for any persona: player, opponent, spectator, anonymous visitor."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from delve.fated import disclosure
from delve.server.games import engine
from delve.server.games.models import EventEntry, Game
from tests.server.conftest import session_client
from tests.server.fated_kit import arrange, fated_game, rewrite

pytestmark = pytest.mark.django_db

PERSONAS = ("player", "opponent", "spectator", "outsider")
KINDS = sorted(disclosure.FIELDS.kinds())


@pytest.fixture
def others(make_user: Any) -> list[Any]:
    return [make_user("dee"), make_user("eve")]


@pytest.fixture
def fated(db: None, clock: Any, player: Any, opponent: Any, others: list[Any]) -> Game:
    return fated_game([player, opponent, *others], classes=("warrior", "explorer", "cat", "priest"))


@pytest.fixture
def clients(player: Any, opponent: Any, spectator: Any, others: list[Any]) -> dict[str, Client]:
    return {
        "player": session_client(player),
        "opponent": session_client(opponent),
        "spectator": session_client(spectator),
        "outsider": Client(),
        "setter": session_client(others[0]),
    }


def all_events(client: Client, game: Game) -> list[dict[str, Any]]:
    """Every event the client may see, page by page."""
    events: list[dict[str, Any]] = []
    while True:
        response = client.get(f"/api/v1/games/{game.pk}/events", {"after": len(events)})
        assert response.status_code == 200, response.content
        page = response.json()["events"]
        if not page:
            return events
        events += page


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_event_kind_shows_only_its_listed_fields_to_every_persona_FL_INFO_3(fated, clients, persona):
    """For every kind the engine emits, an event stored with every listed field plus fields nobody
    listed (and a setter): the API shows the listed fields only, and a private event only to its
    seat (seat 0, the player)."""
    for kind in KINDS:
        listed = disclosure.FIELDS.allowed(kind)
        fated.event_count += 1
        EventEntry.objects.create(
            game=fated,
            sequence=fated.event_count,
            time=fated.started_at + 1,
            kind=kind,
            data={field: 1 for field in listed} | {"secret": "hidden-value", "setter": 3, "tile": 44},
            visibility=EventEntry.visibility_for((0,) if kind in disclosure.PRIVATE else None),
        )
    fated.save()
    shown = [e for e in all_events(clients[persona], fated) if e["time"] == fated.started_at + 1]
    expected = [k for k in KINDS if persona == "player" or k not in disclosure.PRIVATE]
    assert [e["kind"] for e in shown] == expected
    for event in shown:
        assert set(event["data"]) == set(disclosure.FIELDS.allowed(event["kind"])), event
    assert "hidden-value" not in json.dumps(shown)


def step_on_the_setters_trap(fated: Game, opponent: Any) -> engine.Answer:
    """Seat 2 (dee) has a trap at (4,1), right above seat 1 (the opponent, who never evades); seat 1
    starts its turn, steps on it and takes it without defense."""
    arrange(fated, ready=[1], traps=[(4, 1, "attack-20", 2, ())])
    rewrite(fated, lambda s: setattr(s.p(1), "evasion", 0))
    engine.submit(fated.pk, opponent, {"kind": "start_turn"})
    engine.submit(fated.pk, opponent, {"kind": "move", "dir": "up"})
    return engine.submit(fated.pk, opponent, {"kind": "no_defense"}, idempotency_key="take-it")


def trap_results(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for b in bodies if b.get("kind") == "defense.result" and b.get("data", b).get("label") == "trap"]


@pytest.mark.parametrize("persona", [*PERSONAS, "setter"])
def test_a_trap_hit_never_names_its_setter_anywhere_FL_INFO_3(fated, clients, opponent, persona):
    """The probe's finding: the hit is public (its card, the defender, the damage) but no API
    answer, view or page says whose trap it was; only the setter reads "stepped on your trap"."""
    answer = step_on_the_setters_trap(fated, opponent)
    client = clients[persona]
    events = all_events(client, fated)
    assert len(trap_results(events)) == 1
    assert all("source" not in e["data"] for e in trap_results(events))
    sprung = [e for e in events if e["kind"] == "trap.sprung"]
    assert len(sprung) == (1 if persona == "setter" else 0)
    game_view = client.get(f"/api/v1/games/{fated.pk}").json()["view"]
    listed = game_view["events"] + (game_view.get("you") or {}).get("messages", [])
    assert trap_results(listed) and all("source" not in e for e in trap_results(listed))
    html = client.get(f"/games/{fated.pk}/panels/events/").content.decode()
    assert "Attack 20" in html and ("stepped on your trap" in html) == (persona == "setter")
    assert "Player 03" not in html.split("Attack 20")[0][-200:]  # the sentence names no setter
    if persona == "opponent":
        assert all("source" not in e["data"] for e in trap_results(answer.events))
        again = engine.submit(fated.pk, opponent, {"kind": "no_defense"}, idempotency_key="take-it")
        assert again.replayed and again.events == answer.events


def test_an_event_stored_before_the_fix_keeps_the_setter_inside(fated, clients, opponent):
    """Events already in a database (the engine used to record the setter) are filtered on the way
    out: the events API, the API view does not read them, and a replayed answer is re-filtered."""
    step_on_the_setters_trap(fated, opponent)
    entry = EventEntry.objects.get(game=fated, kind="defense.result")
    entry.data = {**entry.data, "source": 2}
    entry.save()
    for persona in PERSONAS:
        assert all("source" not in e["data"] for e in trap_results(all_events(clients[persona], fated)))


@pytest.fixture
def toy_game(db: None, clock: Any, start_game: Any) -> Game:
    return start_game("toy", goal=1, interval=1)


def test_a_toy_field_nobody_listed_never_leaves(toy_game, player, clock):
    """A generic ruleset: ``toy.won`` carries ``margin``, which the toy's list leaves out: not in
    the answer, the events API or the generic page."""
    clock.tick(5)
    answer = engine.submit(toy_game.pk, player, {"kind": "roll"})
    won = [e for e in answer.events if e["kind"] == "toy.won"]
    assert won and all(set(e["data"]) == {"seat"} for e in won)
    assert EventEntry.objects.get(game=toy_game, kind="toy.won").data.keys() >= {"margin"}
    client = session_client(player)
    events = client.get(f"/api/v1/games/{toy_game.pk}/events").json()["events"]
    assert [set(e["data"]) for e in events if e["kind"] == "toy.won"] == [{"seat"}]
    assert "margin" not in client.get(f"/games/{toy_game.pk}/").content.decode()
