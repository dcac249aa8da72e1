"""What each event or message kind may tell its audience: the one allow-list of event data.

Every event body that leaves the engine in a view (the recent-events log, a player's messages)
and every stored event the server sends (the JSON API, the game screen, a command's answer) goes
through ``FIELDS``. A data field missing here is never shown, whoever the audience: a new field
is invisible until a line here lets it out, and a kind missing here shows only its kind and time.

Who may see an event at all is the event's own visibility (public, or some seats); this table
only says what it may contain. It lists exactly what the sentences of :mod:`delve.fated.text`
read, plus the structured details they summarise (a test checks that the screen never needs a
field that is not here). A trap's setter is in no public field (FL-INFO-3): a trap that hits
says only its card; the setter learns the hit from a private ``trap.sprung`` message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from delve.kernel import EventFields

#: The attack fields of a defense result (see ``combat.public_item``): ``source`` is absent for
#: traps, whose setter is secret.
_ITEM = ("defender", "label", "source", "monster", "card", "use", "reflected")

PUBLIC: dict[str, tuple[str, ...]] = {
    # FL-INFO-4: the recent-events log, the same for every viewer
    "game.started": ("players",),
    "game.ended": ("winner", "kind"),
    "game.escaped": ("player",),
    "card.used": ("player", "card", "use", "target", "monster", "owner", "door", "on"),
    "card.used_on_own_tile": ("player",),
    "card.drawn": ("player",),
    "attack.normal": ("attacker", "target", "monster", "owner"),
    "defense.result": (
        *_ITEM,
        "outcome",
        "method",
        "defense_card",
        "counter",
        "damage",
        "special",
        "applied",
    ),
    "turn.passed": ("player", "reward", "count", "amount"),
    "pass_by.requested": ("requester", "target"),
    "pass_by.accepted": ("requester", "target"),
    "pass_by.declined": ("requester", "target"),
    "pass_by.cancelled": ("requester", "target"),
    "steal.attempted": ("thief", "target"),
    "jump": ("player",),
    "treasure.found": ("player",),
    "treasure.tossed": ("victim",),
    "fake.fell": ("player",),
    "exit.appeared": (),
    "exit.disappeared": (),
    "death.survived": ("player",),
    "player.died": ("player", "cause", "credited", "fate"),
    "player.abandoning": ("player", "reason"),
    "monster.summoned": ("owner", "monster"),
    "monster.attack": ("owner", "monster", "target"),
    "monster.magic": ("owner", "monster", "target"),
    "monster.breath": ("owner", "monster", "targets"),
    "monster.attacked": ("monster", "owner", "label", "attacker", "outcome", "damage", "special", "no_effect"),
    "monster.vanished": ("monster", "owner", "reason"),
    "monster.status": ("monster", "owner", "status"),
    "monster.status_removed": ("monster", "owner", "statuses"),
    "monster.healed": ("monster", "owner", "amount"),
    "monster.charmed": ("monster", "owner", "by"),
    "monster.pushed": ("monster", "owner"),
    "door.attacked": ("attacker", "damage"),
    "door.destroyed": ("attacker", "damage"),
    "deck.reshuffled": ("cards",),
    "comment": ("player",),
    "terrain.changed": ("player", "terrain", "count"),
    "terrain.hit": ("player", "card", "target"),
}

PRIVATE: dict[str, tuple[str, ...]] = {
    # FL-INFO-5: messages to some seats only (their own actions' results, their own cards)
    "turn.ready": (),
    "turn.lost": (),
    "cards.drawn": ("cards",),
    "cards.none_left": (),
    "cards.over_limit": ("cards",),
    "cards.lost": ("cards",),
    "cp.drained": ("amount",),
    "poison.hp": ("amount",),
    "poison.cp": ("amount",),
    "status.gained": ("status",),
    "status.expired": ("status",),
    "status.lost": ("statuses",),
    "status.cured": ("statuses",),
    "move.slipped": (),
    "trap.set": ("card",),
    "trap.triggered": ("card",),
    "trap.evaded": ("card",),
    "trap.disarmed": ("card",),
    "trap.cancelled": (),
    "trap.seized": ("card",),
    "trap.sprung": ("card", "defender", "outcome", "damage", "special", "applied"),
    "traps.cleared": ("count",),
    "checkpoint.visited": ("corner",),
    "steal.card": ("target", "card", "card_kind"),
    "steal.failed": ("target",),
    "steal.empty": ("target",),
    "monster.poisoned": ("monster", "amount"),
    "monster.made_fake": ("monster", "fake"),
    "monster.set_trap": ("monster", "card"),
    "hp.recovered": ("amount",),
    "cp.recovered": ("amount",),
    "cp.siphoned": ("amount", "target", "by"),
    "stat.raised": ("stat", "amount"),
    "moved.pushed": ("by",),
    "moved.swapped": ("by",),
    "moved.teleported": (),
    "fake.made": ("fake",),
    "hand.peeked": ("by",),
    "hand.seen": ("target", "kinds"),
    "barter.done": ("target", "gave", "got"),
    "barter.nothing": ("target",),
    "map.revealed": ("radius",),
    "treasure.sensed": ("found", "x", "y"),
}

FIELDS = EventFields({**PUBLIC, **PRIVATE})


def data(kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of an event that may be shown: those its kind lists. ``source`` is listed for
    attacks (whose attacker is public) but never shown for a trap (``label`` "trap"), whose setter
    is secret: the engine no longer records it there, and events stored before that keep it
    inside too."""
    shown = FIELDS.data(kind, fields)
    if shown.get("label") == "trap" or shown.get("use") == "trap":
        shown.pop("source", None)
    return shown


def body(kind: str, time: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    """An event as a view shows it: its allowed data fields, then its own time and kind (which win
    over data fields of the same name)."""
    return {**data(kind, fields), "time": time, "kind": kind}
