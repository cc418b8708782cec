"""The embedded default for a laptop: SQLite in the project folder, tasks in-process, DEBUG on."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = env.bool("DEBUG", True)

# Serve static files straight from the source folders; no collectstatic needed here.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
