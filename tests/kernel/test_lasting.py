"""Lasting view parts (``delve.kernel.lasting``): a bounded memo whose parts keep their canonical
encoding while it holds them, and only while it holds them."""

from __future__ import annotations

import threading

import msgspec

from delve.kernel.lasting import Lasting, Ring, derived_known, encoded, held, remember

canonical = msgspec.json.Encoder(order="sorted")


def test_a_key_builds_once_and_its_part_is_encoded_canonically() -> None:
    memo: Lasting[dict[str, object]] = Lasting(4)
    builds: list[str] = []

    def build(name: str) -> dict[str, object]:
        builds.append(name)
        return {"z": 1, "a": [name, {"y": 2, "b": None}]}

    first = memo.get("k", lambda: build("k"))
    again = memo.get("k", lambda: build("other"))
    assert again is first and builds == ["k"]
    raw = encoded(first)
    assert raw is not None and bytes(raw) == canonical.encode(first)
    assert encoded(first) is raw  # encoded once
    assert held(id(first))


def test_objects_no_memo_holds_have_no_encoding() -> None:
    memo: Lasting[list[int]] = Lasting(2)
    part = memo.get(1, lambda: [1])
    assert encoded([1]) is None  # equal, but not the held object
    assert encoded({"a": 1}) is None
    assert encoded(part) is not None


def test_the_least_recently_used_part_is_forgotten_with_its_encoding() -> None:
    memo: Lasting[list[int]] = Lasting(2)
    one = memo.get(1, lambda: [1])
    two = memo.get(2, lambda: [2])
    assert memo.get(1, lambda: [0]) is one  # 1 is now the most recently used
    three = memo.get(3, lambda: [3])
    assert len(memo) == 2
    assert encoded(two) is None and not held(id(two))
    assert encoded(one) is not None and encoded(three) is not None
    assert memo.get(2, lambda: [22]) == [22]  # built again
    memo.clear()
    assert len(memo) == 0 and encoded(one) is None and encoded(three) is None


def test_a_part_held_by_two_memos_stays_held_until_both_forget_it() -> None:
    part = [7]
    first: Lasting[list[int]] = Lasting(1)
    second: Lasting[list[int]] = Lasting(1)
    first.get("a", lambda: part)
    second.get("b", lambda: part)
    first.get("c", lambda: [8])  # first forgets it
    assert encoded(part) is not None
    second.clear()
    assert encoded(part) is None


def test_threads_sharing_a_memo_get_one_part_per_key() -> None:
    memo: Lasting[list[int]] = Lasting(8)
    results: list[list[int]] = []

    def work() -> None:
        for k in range(200):
            results.append(memo.get(k % 12, lambda k=k: [k % 12]))  # type: ignore[misc]

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(memo) == 8
    assert all(part == [part[0]] for part in results)
    memo.clear()


def test_a_part_held_without_a_key_is_held_once_and_forgotten_in_turn() -> None:
    memo: Lasting[dict[str, object]] = Lasting(2)
    first, second, third = {"n": 1}, {"n": 2}, {"n": 3}
    assert memo.hold(first) is first and held(id(first))
    assert memo.hold(first) is first and len(memo) == 1  # already held: not held twice
    raw = encoded(first)
    assert raw is not None and bytes(raw) == canonical.encode(first)
    memo.hold(second)
    memo.hold(third)  # over the size: the oldest is forgotten
    assert len(memo) == 2 and not held(id(first)) and held(id(second)) and held(id(third))
    memo.clear()


def test_a_part_held_meanwhile_by_another_memo_is_held_by_both_until_both_forget_it() -> None:
    """A part held without a key is kept under its entry of the held parts, one key per part; when
    another memo held the part between the look and the lock (another thread), it is kept under
    a key of its own, and stays held until each memo forgot it."""
    first: Lasting[dict[str, int]] = Lasting(1)
    second: Lasting[dict[str, int]] = Lasting(1)
    part = {"n": 1}
    first.hold(part)
    second._keep(None, part)  # as hold does once it has the lock, the part held meanwhile
    assert len(first) == 1 and len(second) == 1
    first.hold({"n": 2})  # the first memo forgets it: the second still holds it
    assert held(id(part)) and encoded(part) is not None
    second.hold({"n": 3})
    assert not held(id(part))
    first.clear()
    second.clear()


def test_a_ring_holds_its_parts_as_a_memo_does_and_forgets_the_one_held_longest_ago() -> None:
    """A :class:`Ring` is :meth:`Lasting.hold` without keys: a part is held once (also when a memo
    holds it already), its encoding kept while held; over the size the part held longest ago is
    forgotten, and a part also held by a memo stays held until both forgot it."""
    ring: Ring[dict[str, int]] = Ring(2)
    memo: Lasting[dict[str, int]] = Lasting(4)
    first, second, third, fourth = {"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}
    assert ring.hold(first) is first and held(id(first)) and len(ring) == 1
    assert ring.hold(first) is first and len(ring) == 1  # already held: not held twice
    raw = encoded(first)
    assert raw is not None and bytes(raw) == canonical.encode(first)
    memo.hold(second)
    assert ring.hold_all([first, second]) is False and len(ring) == 1  # both held already
    assert ring.hold_all(part for part in (second, first)) is False  # any iterable
    assert ring.hold_all([first, third]) is True and len(ring) == 2
    ring.hold(fourth)  # over the size: the first is forgotten
    assert len(ring) == 2 and not held(id(first)) and held(id(third)) and held(id(fourth))
    assert encoded(first) is None
    ring.clear()
    assert len(ring) == 0 and not held(id(third)) and not held(id(fourth))
    assert held(id(second))  # the memo still holds it
    ring.hold(first)
    ring.hold(third)
    ring.hold(fourth)  # the ring goes round after a clear as before
    assert not held(id(first)) and held(id(third)) and held(id(fourth)) and len(ring) == 2
    ring.clear()
    memo.clear()


def test_a_value_derived_from_a_held_part_is_kept_while_it_is_held() -> None:
    memo: Lasting[dict[str, int]] = Lasting(1)
    part = memo.get("k", lambda: {"a": 1})
    assert derived_known(part, "x") is None
    remember(part, "x", "X")
    remember(part, "x", "again")  # the first value kept for a key stays
    remember(part, "y", "Y")
    assert (derived_known(part, "x"), derived_known(part, "y")) == ("X", "Y")
    loose = {"a": 1}
    remember(loose, "x", "LOOSE")  # not held: nothing kept
    assert derived_known(loose, "x") is None
    memo.get("other", lambda: {"b": 2})  # the memo forgets the part, and what was kept with it
    assert derived_known(part, "x") is None
    memo.get("k", lambda: part)  # held again: kept anew
    assert derived_known(part, "x") is None


def test_a_part_made_of_held_parts_is_encoded_as_the_whole_part() -> None:
    """A list (or dict) whose elements (values) a memo holds is encoded with their own
    encodings put in: the bytes are the canonical JSON of the whole part, whether or not each
    element is held, was encoded before, or is itself made of held parts."""
    entries: Lasting[dict[str, object]] = Lasting(8)
    lists: Lasting[object] = Lasting(8)
    one = entries.get("one", lambda: {"z": [1, 2], "a": "one"})
    two = entries.get("two", lambda: {"b": None, "a": {"y": 2, "x": 1}})
    assert encoded(one) is not None  # encoded before the list that holds it
    fresh = {"k": 1, "c": [3]}
    mixed = lists.get("mixed", lambda: [one, fresh, two, 4, "s"])
    raw = encoded(mixed)
    assert raw is not None and bytes(raw) == canonical.encode([one, fresh, two, 4, "s"])
    nested = lists.get("nested", lambda: {"rooms": mixed, "one": one, "n": 0})
    raw = encoded(nested)
    assert raw is not None and bytes(raw) == canonical.encode({"rooms": [one, fresh, two, 4, "s"], "one": one, "n": 0})
    entries.clear()  # the entries are no longer held: a new list of them is encoded whole
    again = lists.get("again", lambda: [two, one])
    raw = encoded(again)
    assert raw is not None and bytes(raw) == canonical.encode([two, one])


def test_hold_all_holds_each_part_not_held_yet() -> None:
    kept: Lasting[list[int]] = Lasting(4)
    old = kept.get("old", lambda: [1])
    holder: Lasting[list[int]] = Lasting(4)
    new = [2]
    holder.hold_all([old, new])
    assert len(holder) == 1 and held(id(new))  # old was held already: only new is added
    kept.clear()
    assert not held(id(old))
    holder.hold_all([old, new])  # forgotten by its memo: held again
    assert len(holder) == 2 and held(id(old)) and encoded(old) is not None


def test_hold_all_holds_each_part_and_says_whether_any_was_not_held() -> None:
    memo: Lasting[dict[str, object]] = Lasting(3)
    first, second, third = {"n": 1}, {"n": 2}, {"n": 3}
    assert memo.hold_all([first, second]) is True and held(id(first)) and held(id(second))
    assert memo.hold_all([first, second]) is False and len(memo) == 2  # already held
    memo.hold({"n": 4})
    assert memo.hold_all([third]) is True  # over the size: the oldest (first) is forgotten
    assert not held(id(first)) and held(id(second)) and held(id(third))
    memo.clear()
