"""The PettingZoo AEC environments of Fated Labyrinth / Level D and White Maiden
(``delve.fated.env``, ``delve.maiden.env``): PettingZoo's api_test, masks equal to the legal
commands, observations from the view only, whole games with rewards, and a server that never
needs pettingzoo."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from delve.fated import env as fated_env  # noqa: E402
from delve.kernel.aec import ActionError  # noqa: E402
from delve.maiden import env as maiden_env  # noqa: E402


def make(game: str, **kwargs):
    return fated_env.FatedEnv(**kwargs) if game == "fated" else maiden_env.MaidenEnv(**kwargs)


def play_out(env, seed: int, rng_seed: int = 0, limit: int = 20_000):
    """Random masked actions until every agent is done; the rewards summed per agent and the
    number of decisions where a legal command had no action number."""
    env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    totals: dict[str, float] = {}
    unencoded = 0
    steps = 0
    for agent in env.agent_iter(limit):
        observation, reward, termination, truncation, _info = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if termination or truncation:
            env.step(None)
            continue
        seat = env.seat(agent)
        legal = [c for c in env.ruleset.legal_commands(env.game, seat) if c["kind"] not in ("give_up", "comment")]
        _view, choices = env.choices(seat)
        unencoded += len(legal) - len(choices)
        mask = observation["action_mask"]
        assert sorted(np.flatnonzero(mask)) == sorted(choices)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return totals, unencoded, steps


@pytest.mark.parametrize(
    ("game", "kwargs"),
    [("fated", {}), ("fated", {"preset": "level-d"}), ("maiden", {"players": 2}), ("maiden", {"players": 4})],
)
def test_pettingzoos_api_test_passes(game, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to prefer Box observations over a dict with a mask
        api_test(make(game, max_commands=300, **kwargs), num_cycles=200, verbose_progress=False)


def test_a_fated_game_is_played_to_its_end_with_a_winner_plus_one_and_the_others_minus_one():
    env = make("fated")
    totals, unencoded, _steps = play_out(env, seed=3)
    assert env.game.ended and unencoded == 0
    winner = f"player_{env.game.winner}"
    assert totals[winner] == 1.0
    assert all(total == -1.0 for agent, total in totals.items() if agent != winner)
    assert not env.agents


def test_a_white_maiden_game_is_played_to_its_end_with_one_shared_result():
    env = make("maiden", players=3)
    totals, unencoded, _steps = play_out(env, seed=5)
    assert env.game.ended and unencoded == 0
    assert len(set(totals.values())) == 1 and next(iter(totals.values())) in (1.0, -1.0)


def test_a_game_cut_at_max_commands_is_truncated():
    env = make("fated", max_commands=25)
    env.reset(seed=1)
    for _ in range(25):
        observation = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert all(env.truncations.values()) and not env.game.ended


def test_every_fated_action_number_means_one_command_and_back():
    env = make("fated")
    env.reset(seed=2)
    for _ in range(60):
        agent = env.agent_selection
        view, choices = env.choices(env.seat(agent))
        for number, command in choices.items():
            assert fated_env.decode(view, number) == command
            assert fated_env.encode(view, command) == number
        env.step(min(choices))
    assert len(fated_env.SIMPLE) + fated_env.HAND * len(fated_env.CARD_BLOCK) == fated_env.ACTIONS


def test_every_white_maiden_action_number_means_one_command_and_back():
    assert len({maiden_env._key(c) for c in maiden_env.CATALOGUE}) == maiden_env.ACTIONS
    for number in range(maiden_env.ACTIONS):
        assert maiden_env.encode(maiden_env.decode(number)) == number


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = make("fated")
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.ruleset.encode(env.game)
    with pytest.raises(ActionError, match="is not legal"):
        env.step(illegal)
    with pytest.raises(ActionError, match="from 0 to"):
        fated_env.decode(env.ruleset.view(env.game, 0), fated_env.ACTIONS)
    assert env.ruleset.encode(env.game) == before and env.agent_selection == agent


def test_observations_come_from_the_view_only():
    """Two states that give a seat the same view give it the same observation: here another
    seat's hidden hand is changed, which its view does not show."""
    env = make("fated")
    env.reset(seed=6)
    agent = env.agent_selection
    seat = env.seat(agent)
    first = env.observe(agent)["observation"]
    other = env.game.players[(seat + 1) % 4]
    other.hand = list(reversed(other.hand))
    env.game.deck = list(reversed(env.game.deck))
    assert np.array_equal(first, env.observe(agent)["observation"])
    assert env.observation_space(agent)["observation"].contains(first)


def test_seeded_resets_replay_the_same_game():
    a, b = make("maiden", players=2), make("maiden", players=2)
    assert play_out(a, seed=9, rng_seed=1) == play_out(b, seed=9, rng_seed=1)


def test_the_server_and_the_engines_import_without_pettingzoo():
    """The env modules are the only ones that import pettingzoo, gymnasium and numpy."""
    code = (
        "import sys, django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'delve.server.settings');"
        "django.setup(); import delve.server.urls, delve.fated.ruleset, delve.maiden.ruleset, delve.bots, delve.cli;"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'delve.kernel.aec') if m in sys.modules]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.parametrize(("seed", "kwargs"), [(111, {}), (113, {}), (153, {"preset": "level-d"})])
def test_what_each_step_reports_adds_up_to_what_last_returns(seed, kwargs):
    """A step that advances the clock until a seat has a decision can see a seat die on the way
    (a monster, a trap, a lost turn): that seat's -1 is in the step's ``rewards`` as well as in what
    ``last()`` returns it, however many times the step settled (PettingZoo's api_test sums
    ``rewards`` after each step and compares; these seeds lost a -1 before). Every agent ends
    with exactly one reward of +1 or -1, or none if cut off by the command limit."""
    env = make("fated", max_commands=300, **kwargs)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    reported: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(env.num_agents * 200):
        _observation, reward, terminated, truncated, _info = env.last()
        assert reported[agent] == reward, (agent, reported[agent], reward)
        reported[agent] = 0.0
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(_observation["action_mask"])))
        env.step(action)
        for other, value in env.rewards.items():
            reported[other] += value
            totals[other] += value
    assert all(total in (-1.0, 0.0, 1.0) for total in totals.values()), totals
    assert -1.0 in totals.values(), "a seat died in these games"
