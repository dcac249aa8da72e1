"""Rows read with SQL written once (``delve.server.rawsql.Rows``) come back as the instances the ORM
itself makes of them: the same values under the same attribute names, the same loaded state,
whether ``Rows`` made them without ``Model.__init__`` or through ``Model.from_db``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models import signals

from delve.server.accounts.models import ApiToken
from delve.server.games import engine
from delve.server.games.models import Game
from delve.server.rawsql import Rows, plain_init

pytestmark = pytest.mark.django_db


def fetched(rows: Rows[Any], pk: int) -> Any:
    table = rows.model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.columns} FROM {connection.ops.quote_name(table)} g WHERE g.id = %s",
            [pk],
        )
        return cursor.fetchone()


def same_instance(made: Any, loaded: Any) -> None:
    assert type(made) is type(loaded)
    ours = {name: value for name, value in vars(made).items() if name != "_state"}
    orms = {name: value for name, value in vars(loaded).items() if name != "_state"}
    assert ours == orms
    assert list(ours) == list(orms)  # the attributes in the same order, as from_db sets them
    assert (made._state.adding, made._state.db) == (loaded._state.adding, loaded._state.db) == (False, "default")
    assert made.pk == loaded.pk


def test_the_models_of_the_command_path_are_made_without_model_init():
    for model in (Game, ApiToken, get_user_model()):
        assert plain_init(model, [field.attname for field in model._meta.concrete_fields])


def test_a_game_row_is_the_instance_the_orm_loads():
    game = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 13})
    rows = Rows(Game, connection, "g")
    made = rows.build(fetched(rows, game.pk))
    same_instance(made, Game.objects.get(pk=game.pk))
    made.claimed_by = "worker-1"
    made.save(update_fields=["claimed_by"])  # a loaded instance: an UPDATE, not an INSERT
    assert Game.objects.get(pk=game.pk).claimed_by == "worker-1"
    assert Game.objects.count() == 1


def test_a_user_row_is_the_instance_the_orm_loads():
    user = get_user_model().objects.create_user("rows-user", password="pw-123456789")
    rows = Rows(get_user_model(), connection, "g")
    made = rows.build(fetched(rows, user.pk))
    same_instance(made, get_user_model().objects.get(pk=user.pk))
    assert made.check_password("pw-123456789")


def test_with_someone_listening_to_post_init_the_instance_goes_through_model_init():
    game = engine.create_game("fated", "fated-labyrinth", {"players": 4, "maze_size": 13})
    rows = Rows(Game, connection, "g")
    seen: list[Any] = []

    def listen(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    signals.post_init.connect(listen, sender=Game)
    try:
        made = rows.build(fetched(rows, game.pk))
    finally:
        signals.post_init.disconnect(listen, sender=Game)
    assert seen == [made]
    same_instance(made, Game.objects.get(pk=game.pk))


def test_a_model_of_its_own_making_is_not_made_without_model_init():
    class Stamped(models.Model):
        name = models.CharField(max_length=10)
        upload = models.FileField()

        class Meta:
            app_label = "games"
            managed = False

    names = [field.attname for field in Stamped._meta.concrete_fields]
    assert not plain_init(Stamped, names)  # a file field's attribute intercepts assignment
    assert plain_init(Stamped, [name for name in names if name != "upload"])

    class Initialised(models.Model):
        name = models.CharField(max_length=10)

        class Meta:
            app_label = "games"
            managed = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.extra = True

    assert not plain_init(Initialised, ["id", "name"])


def test_a_token_row_with_its_foreign_key_is_the_instance_the_orm_loads():
    user = get_user_model().objects.create_user("rows-token", password=None)
    token, _ = ApiToken.issue(user, "bot")
    rows = Rows(ApiToken, connection, "g")
    made = rows.build(fetched(rows, token.pk))
    same_instance(made, ApiToken.objects.get(pk=token.pk))
    assert made.user == user  # the related user, looked up by the id as loaded
