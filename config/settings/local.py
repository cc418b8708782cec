"""The embedded default for a laptop: SQLite in the project folder, tasks in-process."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

# A demo run shows the site's own pages, its 404 included; DEBUG=true for Django's debug pages.
DEBUG = env.bool("DEBUG", False)

# Serve static files straight from the source folders; no collectstatic needed here.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Receivers on this machine (a score app under development, the tests' own receivers).
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", True)
