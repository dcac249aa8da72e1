"""DIR/results.csv: rows appended as games finish and read back equal, cut-off lines dropped,
new columns added without losing rows."""

from __future__ import annotations

import pytest

from delve.sim.store import ResultStore, decode_cell, encode_cell

ROWS = [
    {"game": "g", "seed": 1, "winner": "", "share": 0.25, "ok": True, "preset": None, "text": 'a "b", c', "key": "k1"},
    {"game": "g", "seed": 2, "winner": "3", "share": 1e-9, "ok": False, "preset": None, "text": "", "key": "k2"},
]


def test_rows_read_back_equal_the_rows_written(tmp_path):
    store = ResultStore(tmp_path)
    for row in ROWS:
        store.append(row)
    store.close()
    assert ResultStore(tmp_path).load() == {"k1": ROWS[0], "k2": ROWS[1]}
    assert (tmp_path / "results.csv").read_text().splitlines()[0] == "game,seed,winner,share,ok,preset,text,key"


def test_a_line_cut_short_is_dropped_when_the_file_is_opened_again(tmp_path):
    store = ResultStore(tmp_path)
    for row in ROWS:
        store.append(row)
    store.close()
    path = tmp_path / "results.csv"
    path.write_bytes(path.read_bytes()[:-7])  # killed while writing the second row
    again = ResultStore(tmp_path)
    assert again.load() == {"k1": ROWS[0]}
    again.append(ROWS[1])
    again.close()
    assert ResultStore(tmp_path).load() == {"k1": ROWS[0], "k2": ROWS[1]}


def test_a_row_with_new_columns_widens_the_file_and_keeps_the_key_last(tmp_path):
    store = ResultStore(tmp_path)
    store.append(ROWS[0])
    store.append({**ROWS[1], "error": "Boom: x"})
    store.close()
    header = (tmp_path / "results.csv").read_text().splitlines()[0]
    assert header.endswith(",error,key")
    rows = ResultStore(tmp_path).load()
    assert rows["k1"] == {**ROWS[0], "error": ""} and rows["k2"]["error"] == "Boom: x"


def test_a_value_that_is_not_csv_able_is_refused():
    with pytest.raises(TypeError, match="must be str, int, float, bool or None"):
        encode_cell([1, 2])


@pytest.mark.parametrize(
    ("text", "types", "value"),
    [
        ("12", {"int"}, 12),
        ("12", {"str"}, "12"),
        ("", {"int", "NoneType"}, None),
        ("", {"str", "NoneType"}, ""),
        ("0.1", {"float"}, 0.1),
        ("True", {"bool"}, True),
        ("x", {"int", "str"}, "x"),
    ],
)
def test_cells_are_decoded_by_the_types_seen_in_their_column(text, types, value):
    assert decode_cell(text, types) == value
