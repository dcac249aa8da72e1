"""The server's own accounts cannot be taken over (an outside probe's HIGH finding): the names of
bot accounts (``bot-<n>``) and hot-seat table accounts (``table-<host>-<n>``) are kept from
sign-up and the admin, in any case; and the code that makes those accounts never adopts one a
person can log in as (made before the names were kept, or by an operator): it takes another name.
"""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from delve.server.accounts.models import ApiToken
from delve.server.accounts.reserved import can_be_used_by_a_person, is_reserved, machine_account
from delve.server.games import bots, demo, engine
from delve.server.games.models import Game
from tests.server.conftest import PASSWORD, session_client
from tests.server.test_maiden_lobby import form_data

pytestmark = pytest.mark.django_db

KEPT = "Names beginning with “bot-” or “table-” are kept"


def sign_up(client: Any, username: str) -> Any:
    return client.post("/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize("username", ["table-1-2", "bot-9", "BOT-9", "Table-3-4", "bot-", "table-anything"])
def test_sign_up_refuses_the_names_kept_for_bots_and_tables_in_any_case(client, username):
    response = sign_up(client, username)
    assert response.status_code == 400
    assert KEPT in unescape(response.content.decode())
    assert not get_user_model().objects.filter(username__iexact=username).exists()


@pytest.mark.parametrize("username", ["robot-9", "bot9", "tablet-1", "ann-bot-1"])
def test_names_that_merely_contain_bot_or_table_are_fine(client, username):
    assert not is_reserved(username)
    assert sign_up(client, username).status_code == 302


def test_the_admin_refuses_a_kept_name_for_a_new_or_renamed_account_but_edits_a_bot(staff, player):
    client = session_client(staff)
    response = client.post(
        "/admin/auth/user/add/",
        {"username": "Bot-9", "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 200 and KEPT in unescape(response.content.decode())
    assert not get_user_model().objects.filter(username__iexact="bot-9").exists()

    def change(user: Any, username: str) -> Any:
        return client.post(
            f"/admin/auth/user/{user.pk}/change/",
            {
                "username": username,
                "first_name": "Grimble",
                "last_name": "",
                "email": "",
                "is_active": "on",
                "date_joined_0": "2024-01-01",
                "date_joined_1": "00:00:00",
            },
        )

    response = change(player, "table-1-2")
    assert response.status_code == 200 and KEPT in unescape(response.content.decode())
    player.refresh_from_db()
    assert player.username == "ann"
    bot = demo.bot_user(1)
    assert change(bot, "bot-1").status_code == 302  # a bot's own account keeps its name


def squatter(username: str) -> Any:
    """A person's account with a kept name, as sign-up allowed before the names were kept."""
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def test_a_hot_seat_table_never_seats_a_person_holding_a_table_name(clock, player):
    """The probe: table-<host>-2 signed up first, then the host opened a hot-seat game."""
    taken = squatter(f"table-{player.pk}-2")
    response = session_client(player).post("/maiden/new/", form_data(s_players=2, table="hotseat"))
    assert response.status_code == 302
    game = Game.objects.get()
    seat = game.seats.get(index=1)
    assert seat.user != taken and not can_be_used_by_a_person(seat.user)
    assert seat.user.username == f"table-{player.pk}-2.2"
    assert not taken.seats.exists()
    # the squatter cannot read seat 1's private view through the API
    response = session_client(taken).get(f"/api/v1/games/{game.pk}/commands")
    assert response.status_code == 403 and response.json()["error"]["code"] == "seat/not_seated"


def test_bots_never_sit_in_a_persons_account_named_like_a_bot(clock, staff):
    """The probe: bot-9 signed up, then a Fated game was filled with many bots."""
    taken = [squatter("bot-1"), squatter("bot-9")]
    game = engine.create_game("fated", "fated-labyrinth", {"players": 12, "wait_time": "1m"})
    assert bots.seat_bots(game.pk, staff, 11) == 11
    users = [seat.user for seat in game.seats.all()]
    assert not any(can_be_used_by_a_person(user) for user in users)
    assert {"bot-1.2", "bot-9.2"} <= {user.username for user in users}
    assert not any(person.seats.exists() for person in taken)


def test_machine_accounts_are_reused_and_made_without_a_usable_password():
    first = machine_account("bot-3", first_name="Mittens")
    assert not first.has_usable_password() and first.first_name == "Mittens"
    assert machine_account("bot-3") == first


@pytest.mark.parametrize("how", ["password", "empty password", "staff", "token"])
def test_an_account_a_person_can_use_is_never_adopted(how):
    users = get_user_model()
    user = users.objects.create(username="bot-5", password=make_password_for(how), is_staff=how == "staff")
    if how == "token":
        ApiToken.issue(user, "mine")
    assert can_be_used_by_a_person(user)
    made = machine_account("bot-5")
    assert made != user and made.username == "bot-5.2"


def make_password_for(how: str) -> str:
    from django.contrib.auth.hashers import make_password

    if how == "empty password":
        return ""
    return make_password(PASSWORD if how == "password" else None)


# --- the demo account ------------------------------------------------------------------------

DEMO_KEPT = "is kept for the server’s demo account"


@pytest.mark.parametrize("username", ["demo", "Demo", "DEMO", "demo.2", "Demo.17"])
def test_sign_up_and_the_admin_refuse_the_demo_names(client, staff, username):
    """A person who signs up as ``demo`` before ``delve demo`` ran would be handed the demo."""
    response = sign_up(client, username)
    assert response.status_code == 400 and DEMO_KEPT in unescape(response.content.decode())
    admin = session_client(staff).post(
        "/admin/auth/user/add/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"},
    )
    assert admin.status_code == 200 and DEMO_KEPT in unescape(admin.content.decode())
    assert not get_user_model().objects.filter(username__iexact=username).exists()


@pytest.mark.parametrize("username", ["demon", "demo2", "demo-1", "my.demo", "demo.x"])
def test_names_that_only_look_like_demo_are_fine(client, username):
    assert not is_reserved(username)
    assert sign_up(client, username).status_code == 302


def test_the_demo_is_made_on_a_fresh_server_and_found_again_on_the_next_run(clock):
    first = demo.create()
    account = get_user_model().objects.get(username="demo")
    assert first.username == "demo" and first.passed_over == () and account.check_password(demo.DEMO_PASSWORD)
    assert list(demo.demo_accounts()) == [account]
    account.set_password("operator-changed-it")  # as docs/operators.md advises on a public server
    account.save()
    second = demo.create()
    assert second.username == "demo" and second.passed_over == () and second.password == ""
    assert get_user_model().objects.filter(username__startswith="demo").count() == 1
    assert second.running.seats.filter(user=account).exists()


def test_the_demo_account_of_an_older_delve_demo_is_taken_over_and_marked(clock):
    """Before the mark, ``delve demo`` made ``demo`` with the published password: still the demo's."""
    old = get_user_model().objects.create_user(username="demo", password=demo.DEMO_PASSWORD)
    games = demo.create()
    assert games.username == "demo" and games.passed_over == ()
    assert list(demo.demo_accounts()) == [old]


@pytest.mark.parametrize("how", ["own password", "staff with the demo password"])
def test_a_person_who_took_the_name_demo_is_never_handed_the_demo(clock, how):
    """The person signed up as ``demo`` before the name was kept: their account is left alone
    (no seat, password unchanged) and the demo is made as ``demo.2``, said in ``passed_over``."""
    if how == "own password":
        person = squatter("demo")
    else:
        person = get_user_model().objects.create_user(username="demo", password=demo.DEMO_PASSWORD, is_staff=True)
    games = demo.create()
    assert games.username == "demo.2" and games.passed_over == ("demo",)
    made = get_user_model().objects.get(username="demo.2")
    assert made.check_password(demo.DEMO_PASSWORD) and list(demo.demo_accounts()) == [made]
    assert not person.seats.exists() and not Game.objects.filter(created_by=person).exists()
    person.refresh_from_db()
    assert not person.groups.exists()
    again = demo.create()  # idempotent: the marked demo.2 again, nothing passed over
    assert again.username == "demo.2" and again.passed_over == ()


def test_delve_demo_says_it_left_a_persons_demo_account_alone(tmp_path):
    """The command itself, on a server where a person holds ``demo``: exit 0, a usable demo under
    another name, and a plain sentence saying so; run again, it uses the same account."""
    from tests.server.test_configuration import run_delve

    env = {"DELVE_SECRET_KEY": "x" * 40}
    made = run_delve(
        "manage",
        "shell",
        "-c",
        "from django.core import management; management.call_command('migrate', verbosity=0); "
        "from django.contrib.auth import get_user_model; "
        "get_user_model().objects.create_user(username='demo', password='their-own-secret')",
        env=env,
        tmp_path=tmp_path,
    )
    assert made.returncode == 0, made.stderr
    first = run_delve("demo", env=env, tmp_path=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "the account 'demo' belongs to a person" in first.stdout
    assert "log in as 'demo.2' with password 'delve-demo'" in first.stdout
    second = run_delve("demo", env=env, tmp_path=tmp_path)
    assert second.returncode == 0 and "belongs to a person" not in second.stdout
    assert "log in as 'demo.2' with password 'delve-demo'" in second.stdout


# --- delve manage createsuperuser (the first operator account, docs/operators.md) ------------


def create_superuser(monkeypatch: pytest.MonkeyPatch, *args: str, password: str | None = None) -> str:
    """``delve manage createsuperuser --noinput ARGS`` (the password from the environment, as
    Django reads it there); the error it stops with, or ``""``."""
    from django.core.management import CommandError, call_command

    if password is None:
        monkeypatch.delenv("DJANGO_SUPERUSER_PASSWORD", raising=False)
    else:
        monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", password)
    try:
        with translation.override("en"):  # as the command line runs it
            call_command("createsuperuser", "--noinput", *args, verbosity=0)
    except CommandError as exc:
        return str(exc)
    return ""


@pytest.mark.parametrize("username", ["bot-8", "Demo.3", "table-1-2", "BOT-1", "demo"])
def test_createsuperuser_refuses_the_kept_names_as_sign_up_does(monkeypatch, username):
    """The command operators.md sends operators to for the first account keeps the names kept
    for the server's own accounts, with or without a password."""
    for password in (None, "Operator-Pass-77"):
        error = create_superuser(monkeypatch, "--username", username, "--email", "op@example.org", password=password)
        assert "kept for the server" in error, error
    assert not get_user_model().objects.filter(username__iexact=username).exists()


def test_createsuperuser_asks_again_for_a_kept_name_at_a_terminal(monkeypatch):
    """At a terminal the kept name is refused and asked again, as a taken name is."""
    from io import StringIO

    from django.contrib.auth.management.commands import createsuperuser
    from django.core.management import call_command

    answers = iter(["bot-8", "grimble", "op@example.org"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr(createsuperuser.getpass, "getpass", lambda prompt="": "Operator-Pass-77")

    class Terminal(StringIO):
        def isatty(self) -> bool:
            return True

    errors = StringIO()
    with translation.override("en"):
        call_command("createsuperuser", interactive=True, stdin=Terminal(), stdout=StringIO(), stderr=errors)
    assert "kept for the server" in errors.getvalue()
    user = get_user_model().objects.get(username="grimble")
    assert user.is_superuser and user.check_password("Operator-Pass-77")
    assert not get_user_model().objects.filter(username__iexact="bot-8").exists()


@pytest.mark.parametrize(
    ("password", "says"),
    [
        ("123", "too short"),
        ("password1", "too common"),
        ("84736251094", "entirely numeric"),
        ("grimble-77", "too similar to the username"),
    ],
)
def test_createsuperuser_noinput_holds_the_password_to_the_sites_rules(monkeypatch, password, says):
    """Django checks the password rules only at a terminal; with --noinput it took ``123`` for the
    most powerful account of the site. Here the rules apply, one line says which it breaks, and
    nothing is created."""
    error = create_superuser(monkeypatch, "--username", "grimble77", "--email", "op@example.org", password=password)
    assert "DJANGO_SUPERUSER_PASSWORD does not pass the site's password rules" in error and says in error, error
    assert "\n" not in error
    assert not get_user_model().objects.filter(username="grimble77").exists()


def test_createsuperuser_noinput_makes_the_operator_with_a_good_password_or_none(monkeypatch):
    error = create_superuser(monkeypatch, "--username", "grimble", "--email", "op@example.org", password="Op-Pass-24")
    assert error == ""
    made = get_user_model().objects.get(username="grimble")
    assert made.is_superuser and made.is_staff and made.check_password("Op-Pass-24")
    # without a password: an account that cannot log in until `delve manage changepassword`
    assert create_superuser(monkeypatch, "--username", "second", "--email", "op@example.org") == ""
    assert not get_user_model().objects.get(username="second").has_usable_password()
