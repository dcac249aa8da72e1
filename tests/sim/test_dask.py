"""The Dask distributed backend: games sent to a cluster give the same rows as one local process
for the same seeds (a LocalCluster in this process stands for the cluster)."""

from __future__ import annotations

import pytest

from delve.cli import main
from delve.sim import runner
from delve.sim.spec import seeded_specs
from delve.sim.store import ResultStore

distributed = pytest.importorskip("distributed")
#: The OS picks a free port: suites of several checkouts may run at once on this machine.
SCHEDULER_PORT = 0


def without_time(rows):
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        processes=False,
        n_workers=2,
        threads_per_worker=1,
        protocol="tcp",
        host="127.0.0.1",
        scheduler_port=SCHEDULER_PORT,
        dashboard_address=None,
    ) as local:
        yield local


def test_a_dask_cluster_gives_the_rows_of_a_single_process_run(cluster, tmp_path):
    specs = seeded_specs(
        "fated", range(1, 7), ["heuristic", "random", "random", "random"], 4, settings={"maze_size": 9}, rotate=True
    )
    local = runner.run(specs, jobs=1, progress=False)
    distributed_rows = runner.run(specs, scheduler=cluster, out=tmp_path, progress=False)
    assert without_time(distributed_rows) == without_time(local)
    assert len(ResultStore(tmp_path).load()) == 6


def test_delve_simulate_sends_games_to_a_scheduler_address(cluster, tmp_path, capsys):
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    out = tmp_path / "run"
    argv = ["simulate", "--games", "3", "--seed", "5", "--set", "maze_size=9", "--out", str(out), "--no-report"]
    assert main([*argv, "--scheduler", address]) == 0
    assert main([*argv[:-3], "--out", str(tmp_path / "local"), "--no-report"]) == 0
    remote = sorted(ResultStore(out).load().values(), key=lambda r: r["seed"])
    local = sorted(ResultStore(tmp_path / "local").load().values(), key=lambda r: r["seed"])
    assert without_time(remote) == without_time(local) and [r["seed"] for r in remote] == [5, 6, 7]


def test_an_unreachable_scheduler_is_one_line_naming_the_argument(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", "1s")
    code = main(["simulate", "--games", "1", "--scheduler", "tcp://127.0.0.1:8749", "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("delve simulate: error: argument --scheduler: cannot reach the Dask scheduler")
