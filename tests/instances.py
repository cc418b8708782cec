"""Two instances in one test: the code under test uses the ``default`` database, so running a
block "on the other instance" points ``default`` at the second database
(``config.settings.test.SECOND_INSTANCE``) for this thread, for every query, transaction and
on-commit callback inside it. A test that uses it asks for both databases:
``pytest.mark.django_db(databases=["default", SECOND_INSTANCE])``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.creation import BaseDatabaseCreation

SECOND_INSTANCE: str = settings.SECOND_INSTANCE


@contextmanager
def _default_is(wrapper: BaseDatabaseWrapper) -> Iterator[None]:
    here = connections[DEFAULT_DB_ALIAS]
    # The handler keeps each alias's connection per thread under the alias's name.
    setattr(connections._connections, DEFAULT_DB_ALIAS, wrapper)
    try:
        yield
    finally:
        setattr(connections._connections, DEFAULT_DB_ALIAS, here)


def second_instance() -> Any:
    return _default_is(connections[SECOND_INSTANCE])


_create_test_db = BaseDatabaseCreation.create_test_db


def _create_as_its_own_instance(self: BaseDatabaseCreation, *args: Any, **kwargs: Any) -> Any:
    """The second test database is migrated as its own instance would be: the migrations'
    data steps read and write the ``default`` database, which is then the second one."""
    if self.connection.alias != SECOND_INSTANCE:
        return _create_test_db(self, *args, **kwargs)
    with _default_is(self.connection):
        return _create_test_db(self, *args, **kwargs)


BaseDatabaseCreation.create_test_db = _create_as_its_own_instance  # type: ignore[method-assign]
