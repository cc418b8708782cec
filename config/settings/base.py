"""Settings shared by every environment. Everything that differs between machines is read from
environment variables through ``config.env.Env``; nothing else is configured."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from clubs.signin import scopes as app_scopes
from config.env import Env

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = Env()

SECRET_KEY = env.str("SECRET_KEY", "insecure-local-development-key-not-for-production-use-0000")
DEBUG = env.bool("DEBUG", False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "oauth2_provider",
    "corsheaders",
    "outbox",
    "live",
    "webhooks",
    "clubs",
    "rules",
    "ledger",
    "scoring",
    "standings",
    "tournaments",
    "series",
    "federation",
    "reports",
    "archive",
    "pages",
]

MIDDLEWARE = [
    # First: everything after it reads the client's address.
    "config.middleware.ProxiedClientAddressMiddleware",
    # Before anything that answers: preflights are answered here, and every answer of the API
    # (errors included) carries the CORS headers its caller's origin is due (clubs/signin/cors.py).
    "corsheaders.middleware.CorsMiddleware",
    # The API's answers compressed, then (inside it) given their ETags (config/api_transfer.py).
    "config.api_transfer.ApiGZipMiddleware",
    "config.api_transfer.ApiConditionalGetMiddleware",
    # Each counted API request's RateLimit-* headers (clubs/api_kit/rate_limit.py).
    "clubs.api_kit.rate_limit.RateLimitHeadersMiddleware",
    # Deprecation and Sunset on the answers that used something deprecated (config/deprecations.py).
    "config.deprecations.DeprecationHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages asked for through loopback sent to the room's address, where `make room` serves one.
    "config.middleware.RoomAddressMiddleware",
    "config.middleware.RequestLimitsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The language of the answer: the person's choice, else the browser's (a club's page may
    # then take the club's, clubs/page_kit/pages.py).
    "config.language.LanguageMiddleware",
    "clubs.api_kit.idempotency.IdempotencyKeyMiddleware",
    "config.middleware.QueryParametersMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": env.database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", 60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads of the dev server and the eager tasks share one file: wait rather than fail.
    # Write-ahead logging: pages and live screens read while a deal is written, instead of
    # waiting for its commit (the room's phones and projectors read far more than they write).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    # A pooled connection the server ended (a restart, a failover, a terminated backend) is found
    # dead before a request uses it and replaced, rather than failing that request with a 503.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # A deal's submit and validation repeat the same dozen statements: with the values sent apart
    # from the SQL, PostgreSQL prepares each statement once per connection (after its second use)
    # instead of parsing and planning it for every deal.
    PREPARE_AFTER = env.int("DB_PREPARE_AFTER", 2)
    if PREPARE_AFTER > 0:
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=PREPARE_AFTER
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A request body larger than this is refused (413, config.middleware) before it is read.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

REDIS_URL = env.redis_url("REDIS_URL")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "rummyclub",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (/login/, /admin/login/) are counted per account and per address by django-axes
# (see docs/reliability.md): after LOGIN_FAILURE_LIMIT failures either one is refused with 429
# and Retry-After for LOGIN_COOLOFF_MINUTES. A success clears the account's count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.lockout.locked_out"
AXES_VERBOSE = False
# Password resets asked for within an hour, per address asked for and per client address; over
# either the page answers 429 and nothing is sent (clubs/signin/password_reset.py, counted in the
# cache).
PASSWORD_RESET_LIMIT = env.int("PASSWORD_RESET_LIMIT", 3)
PASSWORD_RESET_IP_LIMIT = env.int("PASSWORD_RESET_IP_LIMIT", 10)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Mail (password resets): printed to the console unless an SMTP server is given.
EMAIL_HOST = env.str("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env.int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", True)
# The mail is sent by the scoring worker (default queue): a stalled SMTP server must not hold one
# of its processes for ever (smtplib waits without limit otherwise).
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", "rummyclub <noreply@localhost>")
LOGOUT_REDIRECT_URL = "home"

# English when nothing else applies; the others a person, a club or a browser may choose
# (config/language.py, docs/languages.md). Hebrew is written right to left.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("hi", "हिन्दी"),
    ("he", "עברית"),
    ("de", "Deutsch"),
    ("nl", "Nederlands"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A person's own choice, kept a year on their device (and in their account when signed in).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env.str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- Celery: a real broker when REDIS_URL is set, otherwise tasks run in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", REDIS_URL is None)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker rides out a broker outage: it reconnects for ever, a second apart, and gives up the
# tasks in flight (acks_late: they are delivered again) rather than crash on the lost connection.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Publishing never waits for a broker that is down: one quick connection attempt, then the error
# (the outbox relay publishes later). These options are the producer's; the worker's reconnect
# loop above has its own.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
    "socket_connect_timeout": 1,
}
CELERY_TASK_DEFAULT_QUEUE = "rummyclub"
# Work is split by what it may wait on, so nothing slow shares a process with a deal's validation:
# ``scoring`` (validations, tournament tables: short database work someone at a table waits for)
# and the default queue (the outbox relay, pruning) are consumed by the Procfile's ``worker``;
# ``webhooks`` (deliveries, which wait on other people's servers) by its ``webhooks`` worker, and
# ``background`` (rating replays, which can take seconds in a large club, and mail, which waits on
# an SMTP server) by its ``background`` worker, where no webhook can delay them.
# ``send_task`` (the outbox) follows these routes by task name; the first matching route wins.
CELERY_TASK_ROUTES = {
    "scoring.rate_game": {"queue": "background"},
    "scoring.ratings_catch_up": {"queue": "background"},
    "clubs.send_password_reset": {"queue": "background"},
    "standings.result_import_run": {"queue": "background"},
    "scoring.*": {"queue": "scoring"},
    "tournaments.*": {"queue": "scoring"},
    # A series follows its events in the background: nothing waits on it.
    "series.*": {"queue": "background"},
    "webhooks.*": {"queue": "webhooks"},
}
CELERY_BEAT_SCHEDULE = {
    "outbox-relay": {"task": "outbox.relay", "schedule": 5.0},
    "outbox-prune": {"task": "outbox.prune", "schedule": 3600.0},
    "idempotency-keys-prune": {"task": "clubs.prune_idempotency_keys", "schedule": 3600.0},
    "requeue-stale-submissions": {
        "task": "scoring.requeue_stale_submissions",
        "schedule": 15.0,
    },
    "ratings-catch-up": {
        "task": "scoring.ratings_catch_up",
        "schedule": 60.0,
    },
    "tournament-tables-catch-up": {
        "task": "tournaments.tables_catch_up",
        "schedule": 60.0,
    },
    "webhooks-sweep": {"task": "webhooks.sweep", "schedule": 5.0},
    "webhooks-prune": {"task": "webhooks.prune", "schedule": 3600.0},
}

# Webhooks (docs/api.md, "Webhooks"). Private and plain-http receivers only where allowed (a
# laptop, the tests); production sends to public https addresses only.
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", False)
# Where the site is reached: the API URLs that webhook events carry start with it (an event is
# sent outside any request, so it cannot be read from one).
PUBLIC_URL = env.str("PUBLIC_URL", "http://127.0.0.1:8000")
# Where `make room` serves the club's network (config/room.py): pages asked for through loopback
# are sent there, so that every link and QR code carries an address phones reach. Empty: off.
ROOM_URL = env.str("ROOM_URL", "")
WEBHOOK_TIMEOUT_SECONDS = env.int("WEBHOOK_TIMEOUT_SECONDS", 5)
# Pings and redeliveries (sends an organiser asks for by hand) per club in any minute.
WEBHOOK_MANUAL_SENDS_PER_MINUTE = env.int("WEBHOOK_MANUAL_SENDS_PER_MINUTE", 10)
WEBHOOK_RETRY_WINDOW_SECONDS = env.int("WEBHOOK_RETRY_WINDOW_SECONDS", 24 * 3600)
WEBHOOK_BACKOFF_BASE_SECONDS = env.float("WEBHOOK_BACKOFF_BASE_SECONDS", 10.0)
# A worker holds a delivery this long while sending it; one that died is replaced after.
WEBHOOK_CLAIM_SECONDS = env.int("WEBHOOK_CLAIM_SECONDS", 30)
# Events given up on in a row before the endpoint is disabled.
WEBHOOK_DISABLE_AFTER = env.int("WEBHOOK_DISABLE_AFTER", 3)
WEBHOOK_STANDINGS_DEBOUNCE_SECONDS = env.int("WEBHOOK_STANDINGS_DEBOUNCE_SECONDS", 10)
# Each club's share of the webhook worker (webhooks/limits.py): attempts in flight at once per
# club (the Procfile's webhooks worker has WEBHOOK_WORKER_CONCURRENCY processes, 4), and the
# pace of endpoints whose attempts keep running out of time: slowed to one attempt a minute
# after 3 in a row, paused for an hour after 10.
WEBHOOK_SENDS_PER_CLUB = env.int("WEBHOOK_SENDS_PER_CLUB", 1)
WEBHOOK_SLOW_AFTER_TIMEOUTS = env.int("WEBHOOK_SLOW_AFTER_TIMEOUTS", 3)
WEBHOOK_SLOWED_SECONDS = env.int("WEBHOOK_SLOWED_SECONDS", 60)
WEBHOOK_PAUSE_AFTER_TIMEOUTS = env.int("WEBHOOK_PAUSE_AFTER_TIMEOUTS", 10)
WEBHOOK_PAUSED_SECONDS = env.int("WEBHOOK_PAUSED_SECONDS", 3600)

# --- Live screens (live/): changes announced through Redis when it is there, else in memory.
LIVE_REDIS_URL = REDIS_URL
# Keys and the pub/sub channel start with it: two sites on one Redis keep apart.
LIVE_PREFIX = env.str("LIVE_PREFIX", "rummyclub:live")
# A comment on a quiet stream this often: the proxy and the browser see it is alive.
LIVE_KEEPALIVE_SECONDS = env.int("LIVE_KEEPALIVE_SECONDS", 15)
# A stream ends after this long and the browser reconnects with the id it last saw.
LIVE_STREAM_SECONDS = env.int("LIVE_STREAM_SECONDS", 600)
# A stream's token (the topics a page may hear of) is good this long after the page was
# rendered: a screen open longer reloads its page (a night is shorter); a copied URL stops.
LIVE_TOKEN_MAX_AGE_SECONDS = env.int("LIVE_TOKEN_MAX_AGE_SECONDS", 24 * 3600)
# How long a browser waits before reconnecting a stream it lost.
LIVE_RETRY_MS = env.int("LIVE_RETRY_MS", 2000)
# The streams one live process holds at most (fewer when its open file limit is lower); past
# it a screen is answered 503 with Retry-After and polls (live/capacity.py, README).
LIVE_MAX_STREAMS = env.int("LIVE_MAX_STREAMS", 5000)
# OAuth2 for score apps (django-oauth-toolkit): authorization code with PKCE, the device grant,
# refresh tokens, revocation and introspection. docs/api.md says how an app signs in.
OAUTH2_PROVIDER = {
    "SCOPES": dict(app_scopes.SCOPES),
    "DEFAULT_SCOPES": [app_scopes.READ],
    # PKCE for every authorization code, public client or confidential (OAuth 2.1 asks it).
    "PKCE_REQUIRED": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": env.int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env.int("OAUTH_REFRESH_TOKEN_SECONDS", 60 * 24 * 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    "ROTATE_REFRESH_TOKEN": True,
    # A refresh token used twice (stolen and replayed) revokes the whole family.
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "OAUTH2_VALIDATOR_CLASS": "clubs.signin.oauth_validator.ClubOAuth2Validator",
    "OAUTH_DEVICE_VERIFICATION_URI": PUBLIC_URL.rstrip("/") + "/oauth/device/",
    # The same page with the code filled in, for a device that shows a QR code or a link.
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": (
        PUBLIC_URL.rstrip("/") + "/oauth/device/?user_code={user_code}"
    ),
    "DEVICE_FLOW_INTERVAL": 5,
    # PKCE with S256 checked before the consent page, and the device grant's slow_down.
    "OAUTH2_SERVER_CLASS": "clubs.signin.oauth_server.ClubServer",
    # Not the toolkit's look-up of the device's person before the app is authenticated (an
    # unknown device code would be a 500): clubs.signin.oauth_server does it once the app is
    # authenticated.
    "OAUTH_PRE_TOKEN_VALIDATION": [],
    # Native apps redirect to their own scheme (e.g. com.example.score:/cb) or to loopback.
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https", "rummyclub"],
    # The OAuth 2.0 Security BCP (RFC 9700), ahead of the toolkit's 4.0 defaults: no implicit or
    # password grant, no "plain" PKCE, no tokens in query strings, the `iss` of RFC 9207 in
    # every authorization answer, and tokens kept only as hashes.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
}
# A native app's loopback redirect (http://127.0.0.1:<port>/..., RFC 8252 section 7.3) is
# plain http by design: the toolkit warns of any http redirect scheme.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]
# CORS (django-cors-headers): the API and the token and revocation endpoints answer the web
# origins of registered apps' redirect URIs (https, or http to loopback), which clubs/signin/cors.py
# looks up; never with cookies, so a page elsewhere can only use a token it was given.
CORS_URLS_REGEX = r"^/(api/|oauth/(token|revoke)/)"
CORS_ALLOWED_ORIGINS: list[str] = []
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key"]
CORS_EXPOSE_HEADERS = [
    "Location", "Idempotent-Replayed", "Retry-After", "ETag", "RateLimit-Limit",
    "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy", "Deprecation", "Sunset", "Link",
]  # fmt: skip

# Requests a minute each API caller may make (clubs/api_kit/rate_limit.py; docs/api.md).
API_RATE_LIMIT = env.int("API_RATE_LIMIT", 600)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "clubs.signin.authentication.AppTokenAuthentication",
        "clubs.signin.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "clubs.signin.token_scopes.TokenScopePermission",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.SubjectAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.StrictLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "config.exception_handler.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["clubs.api_kit.rate_limit.CallerRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon_evaluate": env.str("THROTTLE_ANON_EVALUATE", "60/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "rummyclub API",
    "DESCRIPTION": (
        "Scoring for rummy clubs: validate hands, record deals, keep balanced ledgers, standings "
        "and settle-ups. Apps sign in with OAuth2 (authorization code with PKCE, or the "
        "device grant; scopes read, score, manage; bound to the clubs the person chose), or "
        "send a personal token as `Authorization: Token <key>`; pages use a browser session. "
        "Every error has the shape "
        '`{"error": {"code", "message", "details"}}`.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A PATCH body is the input serializer as it is: its required fields are required (a
    # serializer whose fields may all be left out says so itself).
    "COMPONENT_SPLIT_PATCH": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # 3.1 for ``webhooks``: every event a club's endpoints receive, its body typed.
    "OAS_VERSION": "3.1.0",
    "WEBHOOKS": [
        "scoring.event_schema.deal_scored",
        "scoring.event_schema.deal_rejected",
        "scoring.event_schema.deal_corrected",
        "scoring.event_schema.game_finished",
        "scoring.event_schema.session_closed",
        "tournaments.event_schema.round_released",
        "tournaments.event_schema.tournament_finished",
        "webhooks.schema.standings_changed",
        "webhooks.schema.ping",
    ],
    # Operations are tagged by subject (config.api_schema), in this order.
    "TAGS": [
        {"name": "clubs", "description": "Clubs and their settings."},
        {"name": "members", "description": "Who belongs to a club, and their roles."},
        {"name": "players", "description": "A club's roster."},
        {"name": "presets", "description": "Rule presets: a format and its settings."},
        {
            "name": "nights",
            "description": "Sessions (a club's nights), their tables, scoreboard and settle-up.",
        },
        {"name": "games", "description": "Games at a table: seats, state, pool rejoins, splits."},
        {"name": "deals", "description": "Deals and their results (submissions)."},
        {"name": "table links", "description": "Links that let a table enter its own results."},
        {"name": "table entry", "description": "What a table link's holder may do."},
        {"name": "standings", "description": "Standings, seasons and a player's history."},
        {"name": "ratings", "description": "Ratings of the club's players."},
        {"name": "results", "description": "Past results imported from a sheet."},
        {"name": "tournaments", "description": "Tournaments: entries, rounds, the purse."},
        {"name": "series", "description": "Season series: events, points by place, the table."},
        {
            "name": "federation",
            "description": "A federation's rating and ranking lists, its officers' queue and "
            "decisions, and its member clubs' requests.",
        },
        {"name": "webhooks", "description": "Signed events sent to a club's endpoints."},
        {
            "name": "sync",
            "description": "An app's copy of a club kept current: the club's stream of changes "
            "and what was deleted or merged.",
        },
        {"name": "invitations", "description": "Invitations to join a club."},
        {"name": "tokens", "description": "Personal API tokens."},
        {"name": "rules", "description": "The rules engine, open to anyone."},
    ],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.error_responses_declare",
        "config.openapi.union_tags_declare",
        "config.money.money_fields_nullable",
        "config.api_examples.examples_declare",
    ],
    "ENUM_NAME_OVERRIDES": {
        "GameFormatEnum": "scoring.models.GameFormat",
        "SessionStatusEnum": "scoring.models.Session.Status",
        "GameStatusEnum": "scoring.models.Game.Status",
        "DealStatusEnum": "scoring.models.Deal.Status",
        "SubmissionStatusEnum": "scoring.models.Submission.Status",
        "SubmissionSourceEnum": "scoring.models.Submission.Source",
        "RoleEnum": "clubs.models.Role",
        "TournamentKindEnum": "tournaments.models.Tournament.Kind",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "LedgerEntryKindEnum": "ledger.models.LedgerEntry.Kind",
        "RoundStageEnum": "tournaments.models.Round.Stage",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "RoundTableStatusEnum": ["draft", "playing", "finished", "tiebreaker", "settled"],
        "DeliveryStatusEnum": "webhooks.models.Delivery.Status",
        "TableEntryEnum": "scoring.models.TableEntry",
        # A language (a club's may also be empty: each visitor's browser's).
        "LanguageEnum": [code for code, _name in LANGUAGES],
        # What becomes of a row of a player import.
        "ImportChoiceEnum": "clubs.player_import.CHOICES",
        # The formats' own choice sets (each format's package lists its values).
        "VariantEnum": "scoring.formats.variants",
        "LineOutcomeEnum": "scoring.formats.result_outcomes",
        "IndianOutcomeEnum": "scoring.formats.indian.schema.OUTCOMES",
        "GroupKindEnum": "scoring.formats.indian.schema.GROUP_KINDS",
        "SplitKindEnum": "scoring.formats.pool.schema.SPLIT_KINDS",
        "PoolPlayerStatusEnum": "scoring.formats.pool.schema.PLAYER_STATUSES",
        "RummikubOutcomeEnum": "scoring.formats.rummikub.schema.OUTCOMES",
        "RummikubVariantEnum": "scoring.formats.rummikub.schema.VARIANTS",
        "OkeyOutcomeEnum": "scoring.formats.okey.schema.OUTCOMES",
        "OkeyVariantEnum": "scoring.formats.okey.schema.VARIANTS",
        "OkeyFinishEnum": "scoring.formats.okey.payload.FINISHES",
        "HistoryKindEnum": "scoring.serializers.HISTORY_KINDS",
        # A tournament's setting may also be empty: as its club's nights.
        "TournamentTableEntryEnum": [
            ("", ""),
            ("off", "off"),
            ("confirm", "confirm"),
            ("one_phone", "one_phone"),
            ("trusted", "trusted"),
        ],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"client_errors": {"()": "config.logs.ClientErrorsWithoutTraceback"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["client_errors"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # Django's own console handler would print every record a second time through the root.
        "django": {"handlers": [], "propagate": True},
        # WeasyPrint says each step of every report at INFO ("parsing CSS"): only its warnings.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
