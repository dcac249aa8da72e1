"""The collector's settings in a server process (delve.server.gcpolicy)."""

from __future__ import annotations

import gc

import pytest

from delve.server import gcpolicy


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


def test_a_process_that_set_django_up_collects_its_youngest_generation_less_often():
    """The app's ready() ran when the test process set Django up."""
    assert gc.get_threshold()[0] >= gcpolicy.YOUNG_THRESHOLD


def test_the_youngest_threshold_is_raised_and_the_older_ones_kept(thresholds):
    gc.set_threshold(700, 11, 12)
    gcpolicy.configure()
    assert gc.get_threshold() == (gcpolicy.YOUNG_THRESHOLD, 11, 12)


def test_a_collector_turned_off_or_set_further_apart_is_left_so(thresholds):
    gc.set_threshold(0, 10, 10)
    gcpolicy.configure()
    assert gc.get_threshold() == (0, 10, 10)
    gc.set_threshold(100_000, 10, 10)
    gcpolicy.configure()
    assert gc.get_threshold() == (100_000, 10, 10)


def test_freezing_at_start_keeps_what_exists_out_of_later_collections():
    before = gc.get_freeze_count()
    kept = [[index] for index in range(100)]  # containers made before the freeze
    try:
        gcpolicy.freeze_startup()
        assert gc.get_freeze_count() >= before + len(kept)
        walked = {id(item) for item in gc.get_objects()}  # the generations a collection walks
        assert not walked & {id(item) for item in kept}
    finally:
        gc.unfreeze()
