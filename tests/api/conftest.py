"""The permission table's world (a club with a night in play) for every API test here."""

from tests.api.test_permissions import world  # noqa: F401 (a fixture, found by its name)
