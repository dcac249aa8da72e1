"""A card's target buttons on the Fated game screen say when the card cannot affect the target
(FL-STS-2, AMB-35)."""

from __future__ import annotations

from django.utils import translation

from delve.fated import content


def test_a_card_aimed_at_a_monster_it_cannot_affect_says_so_FL_STS_2(db, clock, player, opponent, make_user):
    """FL-STS-2, AMB-35: Blind may be aimed at a monster (the rules allow it) but does nothing
    to it: its target button says so; a status that works on monsters (Stripped) does not."""
    from delve.server.play import fated_screen
    from delve.server.play.fated_screen import _choice
    from tests.server.fated_kit import arrange, fated_game

    game = fated_game([player, opponent, make_user("u2"), make_user("u3")])
    arrange(
        game,
        (
            "C...#...C",
            ".#.#.#.#.",
            "..1S2.~..",
            ".#.#.#.#.",
            ".........",
            ".#+#.#.#.",
            ".........",
            ".#.#.#.#.",
            "C.3...4.C",
        ),
    )
    with translation.override("en"):
        screen = fated_screen.load(game, player)
    assert screen.view is not None
    slime = next(c for c in screen.view["characters"] if c["type"] == "monster")
    cards = content.load().cards
    command = {"kind": "use_card", "card": 1, "use": "remote", "monster": slime["id"]}
    with translation.override("en"):
        assert _choice(screen, command, cards["blind"])["label"].endswith("(no effect on monsters)")
        assert "no effect" not in _choice(screen, command, cards["stripped"])["label"]
        assert "no effect" not in _choice(screen, command, cards["attack-10"])["label"]
