"""Model rows read with SQL written once, for the few queries every request makes.

Django's ORM builds a query anew on each call (filters, joins, ordering, compilation), which on
a hot path costs more than the database itself. :class:`Rows` writes a model's column list once
per connection and turns a fetched row back into an instance exactly as the ORM would (the
backend's and the fields' converters, ``Model.from_db``).

A model that leaves instance creation to Django (no ``__init__`` or ``from_db`` of its own, its
fields' attributes descriptors that only store a value on a new instance (:func:`plain_init`),
nobody listening to ``pre_init`` or ``post_init``) has
its instance made as unpickling makes one: the values put in its ``__dict__`` and its state set
as ``from_db`` sets it. That is the instance ``from_db`` would make (every field's value under
its attribute name, ``adding`` false, the connection's alias), in about a sixth of the time:
``Model.__init__`` matches every value to its field and sends the two signals, at every command.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, signals
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute

M = TypeVar("M", bound=Model)
T = TypeVar("T")


class Rows(Generic[M]):
    """All concrete fields of ``model``, selected under a table alias and rebuilt into instances."""

    def __init__(self, model: type[M], connection: BaseDatabaseWrapper, alias: str) -> None:
        self.model = model
        self.connection = connection
        self.fields = tuple(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.columns = ", ".join(f"{alias}.{quote(field.column)}" for field in self.fields)
        self.expressions = [field.get_col(model._meta.db_table) for field in self.fields]
        self.converters = [
            [*connection.ops.get_db_converters(column), *column.field.get_db_converters(connection)]
            for column in self.expressions
        ]
        #: (position, converters, expression) of the columns that have converters at all
        self.converted = [
            (position, converters, self.expressions[position])
            for position, converters in enumerate(self.converters)
            if converters
        ]
        #: whether instances may be made without ``Model.__init__`` (see the module docstring)
        self.plain = plain_init(model, self.attnames)

    @property
    def width(self) -> int:
        return len(self.fields)

    def build(self, row: Sequence[Any]) -> M:
        """The instance of the first ``width`` values of ``row``."""
        values = list(row[: self.width])
        connection = self.connection
        for position, converters, expression in self.converted:
            value = values[position]
            for converter in converters:
                value = converter(value, expression, connection)
            values[position] = value
        if self.plain and not signals.pre_init.receivers and not signals.post_init.receivers:
            instance = self.model.__new__(self.model)
            state = instance._state = ModelState()
            state.adding = False
            state.db = connection.alias
            instance.__dict__.update(zip(self.attnames, values, strict=True))
            return instance
        return self.model.from_db(connection.alias, self.attnames, values)

    def convert(self, name: str, value: Any) -> Any:
        """One value of field ``name`` as the ORM would read it."""
        position = self.attnames.index(name)
        for converter in self.converters[position]:
            value = converter(value, self.expressions[position], self.connection)
        return value


def plain_init(model: type[Model], attnames: Sequence[str]) -> bool:
    """Whether an instance of ``model`` with the values of ``attnames`` (all its concrete fields)
    is exactly its ``__dict__`` of those values and a loaded state: no ``__init__`` or
    ``from_db`` of its own, and every field's class attribute a descriptor that, on a new
    instance, only stores the value (Django's ``DeferredAttribute`` and, for a foreign key's id,
    ``ForeignKeyDeferredAttribute``, which otherwise forgets a cached related object; a file
    field's, for one, does more)."""
    if model.__init__ is not Model.__init__ or model.from_db.__func__ is not Model.from_db.__func__:  # type: ignore[attr-defined]
        return False
    return all(_stores_only(inspect.getattr_static(model, name, None)) for name in attnames)


def _stores_only(attribute: Any) -> bool:
    kind = type(attribute)
    return kind is ForeignKeyDeferredAttribute or (
        isinstance(attribute, DeferredAttribute) and not hasattr(kind, "__set__")
    )


def per_connection(key: str, make: Any, connection: BaseDatabaseWrapper | None = None) -> Any:
    """``make(connection)``, made once per connection (default: this thread's) and kept on it."""
    connection = connection or connections[DEFAULT_DB_ALIAS]
    made = connection.__dict__.get(key)
    if made is None:
        made = connection.__dict__[key] = make(connection)
    return made


def first_read(connection: BaseDatabaseWrapper, read: Callable[[Any], T]) -> T:
    """``read(cursor)`` as a request's first statement: on PostgreSQL it also checks the
    connection it takes from the pool, instead of a round trip of its own before it
    (:mod:`delve.server.postgresql_backend.base`). ``read`` must only read: it may run twice."""
    reader = getattr(connection, "first_read", None)
    if reader is not None:
        return reader(read)  # type: ignore[no-any-return]
    with connection.cursor() as cursor:
        return read(cursor)
