from tests.pages.conftest import pages  # noqa: F401 (a fixture, found by its name)
