"""The rules the data holds and the screens say (MV-BOSS-10: a boss action's extra rules, its
MODS, change the check against it): every MODS field has a player's sentence in English and
Japanese, made from the data, so a modifier added to the content is never silent."""

from __future__ import annotations

import msgspec
import pytest

from delve.maiden import rules_text
from delve.maiden.content import Mods, load


def test_every_mods_field_has_a_sentence_MV_BOSS_10() -> None:
    """A new MODS field without a sentence fails here, before any screen shows it silently."""
    assert set(rules_text.MOD_SENTENCES) == set(Mods.__struct_fields__)


@pytest.mark.parametrize("field", Mods.__struct_fields__)
def test_each_mods_field_reads_in_english_and_japanese_MV_BOSS_10(field: str) -> None:
    kind = Mods.__annotations__[field]
    value = "red" if "Colour" in str(kind) else (True if kind in (bool, "bool") else 2)
    extra = {"failure_damage_delta": 1} if field == "failure_damage_unless_partner" else {}
    mods = msgspec.convert({field: value, **extra}, Mods)
    en, ja = rules_text.mod_sentences(mods, "en"), rules_text.mod_sentences(mods, "ja")
    assert en and ja and en != ja, field
    assert all(field not in s and "_" not in s for s in en + ja), (en, ja)
    if extra:
        assert "unless another maiden is in the same area" in " ".join(en)


def test_every_mod_in_the_shipped_content_has_its_sentence_MV_BOSS_10() -> None:
    """Every modifier a boss action, an area or an ongoing quest carries in the shipped content
    is said by a sentence made for it (never the raw field name)."""
    data = load()
    carriers = [a.mods for b in data.bosses.values() for a in b.actions]
    carriers += [a.mods for a in data.areas.values()]
    carriers += [q.mods for q in data.quests.values() if q.mods is not None]
    used = {key for mods in carriers for key in mods.active()}
    assert used, "the shipped content carries mods"
    for key in used:
        assert rules_text.MOD_SENTENCES.get(key) is not None or key == "failure_damage_unless_partner", key
    for mods in carriers:
        for lang in ("en", "ja"):
            said = rules_text.mods_text(mods, lang)
            assert bool(said) == bool(mods.active())
            assert not any(key in said for key in mods.active()), said


@pytest.mark.parametrize(
    ("boss", "index", "en", "ja"),
    [
        (
            "yesod",
            1,
            "Skills used in this check always exhaust",
            "この判定で使ったスキルは、条件を満たしていても消耗する",
        ),
        ("hod", 2, "No ascension.", "アセンションできない。"),
        ("tiphareth", 0, "After the roll, the highest die is rerolled once.", "最も大きい出目のサイコロを1回振り直す"),
        ("geburah", 0, "A failure deals 1 more damage.", "失敗時のダメージが1増える。"),
        ("chesed", 0, "Slate damage +1 per die.", "スレートのダメージがサイコロ1個につき+1。"),
        ("binah", 0, "Skills used in this check always exhaust", "条件を満たしていても消耗する"),
        (
            "binah",
            2,
            "No white dice are rolled. A failure also exhausts one of your ready skills.",
            "白いサイコロを振らない。",
        ),
        ("chokmah", 1, "Dice are one size smaller (d4 at least).", "サイコロが1段階小さくなる（最小4面体）。"),
    ],
)
def test_a_boss_actions_extra_rules_are_said_with_it_MV_BOSS_10(boss: str, index: int, en: str, ja: str) -> None:
    action = load().bosses[boss].actions[index]
    assert en in rules_text.action_text(action, "en")
    assert ja in rules_text.action_text(action, "ja")


def test_a_plain_action_says_nothing_more_and_an_effect_keeps_its_text_MV_BOSS_10() -> None:
    data = load()
    assert rules_text.action_text(data.bosses["malkuth"].actions[0], "en") == ""
    lullaby = data.bosses["yesod"].actions[0]
    assert lullaby.effect is not None and lullaby.effect.text.en in rules_text.action_text(lullaby, "en")


@pytest.mark.parametrize(
    ("on", "en", "ja"),
    [
        ("success", "On a success: ", "成功時："),
        ("failure", "On a failure: ", "失敗時："),
        ("always", "Success or failure: ", "成否にかかわらず："),
    ],
)
def test_an_event_says_when_it_triggers_MV_EVENT_2(on: str, en: str, ja: str) -> None:
    """MV-EVENT-2: each event says whether it triggers on success, on failure or always; the
    sentence a player reads before the check starts with it."""
    data = load()
    events = [a.effect for b in data.bosses.values() for a in b.actions if a.effect is not None]
    events += [c.event for c in data.room_cards.values() if c.event is not None]
    shown = [e for e in events if e.on == on]
    assert shown, f"the shipped content has events on {on}"
    for event in shown:
        assert rules_text.event_text(event, "en") == en + event.text.en
        assert rules_text.event_text(event, "ja") == ja + event.text.ja


def test_heirs_sacrifice_says_it_scalds_on_a_success_MV_EVENT_2() -> None:
    heir = load().bosses["tiphareth"].actions[2]
    assert rules_text.action_text(heir, "en") == "On a success: His golden blood scalds you: take 1 damage."
    assert rules_text.action_text(heir, "ja").startswith("成功時：")
