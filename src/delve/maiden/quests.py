"""Quests (MV-QUEST-1..6, MV-SPEC-3, CHG-15): drawing at a quest room, the immediate effect,
follow-up quests shuffled into the quest deck, ongoing quests with global mods."""

from __future__ import annotations

from delve.maiden import board, effects
from delve.maiden.ctx import Ctx
from delve.maiden.state import Maiden


def add_numbered(ctx: Ctx, number: int) -> None:
    """MV-QUEST-4: a numbered quest named by a card's text is shuffled into the quest deck."""
    decks = ctx.state.decks
    for quest_id in list(decks.quests_aside):
        if ctx.content.quests[quest_id].number == number:
            decks.quests_aside.remove(quest_id)
            decks.quest.append(quest_id)
            ctx.rng.shuffle(decks.quest)
            ctx.emit("quest.added", number=number)
            return


def resolve(ctx: Ctx, maiden: Maiden, quest_id: str) -> None:
    """MV-QUEST-2/3: the quest goes to the quest area and its text resolves; its follow-ups join
    the deck; a quest that is not ongoing is then discarded, an ongoing one stays with its mods."""
    quest = ctx.content.quests[quest_id]
    state = ctx.state
    state.quest_area.append(quest_id)
    ctx.emit("quest.drawn", seat=maiden.seat, quest=quest_id)
    for number in quest.follow_ups:
        add_numbered(ctx, int(number))
    if not quest.ongoing:
        state.quest_area.remove(quest_id)
        state.decks.quest_discard.append(quest_id)
    state.boss_life_delta += int(board.get_mod(quest.mods, "boss_life_delta") or 0)
    effects.run(ctx, [dict(op) for op in quest.ops], f"quest:{quest_id}", {}, actor=maiden, strict=False)
