"""Settings, all from the environment; with none set, Muster runs embedded (SQLite, eager tasks)."""
import os
import sys
from pathlib import Path

import environ
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE

from config.deploy_settings import instrumented_cache, instrumented_database, media_storage
from config.mail import email_settings
from config.secret import load_or_create_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

DATA_DIR = Path(env.str("MUSTER_DATA_DIR", default=str(BASE_DIR / "data")))
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or load_or_create_secret_key(DATA_DIR / "secret_key")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here: /api/docs/ works offline
    "armylists",
    "missions",
    "events",  # label "league"
    "accounts",
    "venue",
    "printing",
    "notices",
    "campaigns",
    "circuits",  # rankings across events: placement points, Elo, Glicko-2
    "leagues",  # leagues over weeks: the "league" event format
    "teams",  # team events: the "team" event format (WTC draft, team Swiss)
]

MIDDLEWARE = [
    # X-Muster-Node on every response; /healthz/ and /metrics answered before the rest (config.node).
    "config.node.NodeMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every response (config.security_headers).
    "config.security_headers.PermissionsPolicyMiddleware",
    "config.security_headers.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "config.request_guards.RequestGuardMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.errors.RefusedConnectionMiddleware",  # a refused connection: 503, not 500
    "config.metrics.AfterMiddleware",  # django-prometheus's, by view: last
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'muster.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue instead of failing with "database is locked": a transaction takes the write
    # lock when it begins (IMMEDIATE, so no reader upgrades into a deadlock), waits up to 20 s
    # for it, and readers never block the writer (WAL).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }
else:
    # Keep connections between requests (fewer connects), checked before each reuse, in the
    # long-lived processes (gunicorn, Celery workers). Never under `manage.py runserver`: it
    # serves each request in a thread of its own, whose connection would stay open unused
    # (a registration burst ran PostgreSQL out of connections), so there it closes after each.
    runserver = sys.argv[1:2] == ["runserver"]  # manage.py, django-admin, python -m django
    DATABASES["default"]["CONN_MAX_AGE"] = 0 if runserver else env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # psycopg may keep statements prepared (only config.plain_rows.cursor asks it to: Django's own
    # cursors bind on the client and never prepare); the hot paths' statements then skip planning.
    if env.bool("PREPARED_STATEMENTS", default=True):  # false behind a pooler that drops them
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Django's backend plus the per-account limit on failed log-ins (accounts.login_limits).
AUTHENTICATION_BACKENDS = ["accounts.login_limits.LoginLimitedBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates day-month and 24 h, as readers here expect (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(DATA_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve from static/ too when collectstatic has not run
STORAGES = {
    # MEDIA_STORAGE=filesystem (MEDIA_ROOT) or s3 with the S3_* settings (config.deploy_settings).
    "default": media_storage(os.environ),
    "staticfiles": {
        # Compressed but not hashed: pages render even before collectstatic has run (tests).
        "BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"
    },
}
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(DATA_DIR / "media")))
MEDIA_URL = "media/"
# Mission packs: tables per WeasyPrint document (memory stays bounded; see docs/architecture.md).
MUSTER_PACK_CHUNK_TABLES = env.int("MUSTER_PACK_CHUNK_TABLES", default=50)

# A pasted roster or a base64 .rosz travels in the JSON body: leave room for a 2 MiB file.
DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024
# Any body, files included, over this is refused before it is read (config.request_guards),
# and an upload stops streaming in once past it (the first upload handler).
MUSTER_MAX_REQUEST_BYTES = DATA_UPLOAD_MAX_MEMORY_SIZE
FILE_UPLOAD_HANDLERS = [
    "config.request_limits.CappedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://muster")}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # A Redis down or out of reach costs each call a second or two (redis-py waits 5 s), after
    # which its callers go on without it (config.cache_outage). CACHE_URL's query overrides.
    _redis_options = CACHES["default"].setdefault("OPTIONS", {})
    _redis_options.setdefault("socket_connect_timeout", 1)
    _redis_options.setdefault("socket_timeout", 2)

# Several machines (shared/deploy-v1.md): the X-Muster-Node header's name (else hostname:pid);
# /metrics for `Authorization: Bearer <MUSTER_METRICS_TOKEN>` only (unset: no /metrics); a
# Celery worker's own metrics on this port (0: none). config/node.py, config/metrics.py.
MUSTER_NODE_NAME = env.str("MUSTER_NODE_NAME", default="")
MUSTER_METRICS_TOKEN = env.str("MUSTER_METRICS_TOKEN", default="")
MUSTER_WORKER_METRICS_PORT = env.int("MUSTER_WORKER_METRICS_PORT", default=0)
if MUSTER_METRICS_TOKEN:
    # django-prometheus's database and cache metrics: its backends count what passes, no query.
    DATABASES["default"] = instrumented_database(DATABASES["default"])
    CACHES["default"] = instrumented_cache(CACHES["default"])

# Celery: without a broker every task runs eagerly in-process (the embedded default).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or CELERY_BROKER_URL
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fix-up closes the database connection before and after every task unless this
# is set: a worker connected anew (a new PostgreSQL backend) for each notice it sent. Set, the
# fix-up closes it every this many tasks, and config/celery.py applies CONN_MAX_AGE and the
# health checks around each task as Django does around each request.
CELERY_DB_REUSE_MAX = 1000
# A task is acknowledged only once it has run (ACKS_LATE), so a task whose worker dies is
# delivered again: at once when a prefork pool child is lost (REJECT_ON_WORKER_LOST), and
# after the visibility timeout when the whole worker dies (Redis then hands the unacknowledged
# message to another worker). The timeout must exceed the longest task (the hard limit below,
# sized to the largest mission pack: 500 tables take ~17 s, so 20 min is ample on a slow
# machine): a task still running when it expires would be delivered a second time.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_SOFT_TIME_LIMIT = env.int("MUSTER_TASK_SOFT_TIME_LIMIT", default=900)  # build fails
CELERY_TASK_TIME_LIMIT = env.int("MUSTER_TASK_TIME_LIMIT", default=1200)  # pool child killed
MUSTER_TASK_VISIBILITY_TIMEOUT = env.int("MUSTER_TASK_VISIBILITY_TIMEOUT", default=1800)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": MUSTER_TASK_VISIBILITY_TIMEOUT,
    # Look for abandoned messages every few seconds (kombu's default sweep is every ~100 s).
    "unacked_restore_interval": max(1, min(10, MUSTER_TASK_VISIBILITY_TIMEOUT // 20)),
    "unacked_restore_throttle": 1,
}
# A pack's build beats every MUSTER_PACK_HEARTBEAT_SECONDS (a thread, whatever its chunks
# take); a pending or running pack with no heartbeat nor progress for
# MUSTER_PACK_INTERRUPTED_SECONDS is interrupted (the API's "stale"): its worker died, and the
# packs sweep starts it again (printing/services/packs.py). MUSTER_PACK_STALE_SECONDS is the
# older name of the threshold, still read.
MUSTER_PACK_HEARTBEAT_SECONDS = env.float("MUSTER_PACK_HEARTBEAT_SECONDS", default=15)
MUSTER_PACK_INTERRUPTED_SECONDS = env.float(
    "MUSTER_PACK_INTERRUPTED_SECONDS", default=env.float("MUSTER_PACK_STALE_SECONDS", default=60))
# What the worker's own sweeps and builds are sent to (default "celery"); tests give each
# worker they start a queue of its own.
CELERY_TASK_DEFAULT_QUEUE = env.str("MUSTER_TASK_QUEUE", default="celery")

# "off" disables every rate limit (load tests); otherwise "scope=N/period,..." overrides defaults.
MUSTER_RATE_LIMITS = env.str("MUSTER_RATE_LIMITS", default="")
# Proxies in front of Muster that append to X-Forwarded-For (1 behind one TLS proxy): the
# client's address, for the rate limits and the audit log, is then read from that header
# (config.client_address). 0 ignores the header, which any client could forge.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.token_auth.PlainTokenAuthentication",  # DRF's TokenAuthentication, one plain query
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.SafeJSONParser",
        "config.parsers.SafeMultiPartParser",
        "config.parsers.SafeFormParser",
    ],
    # The error answers of each operation, decided in one place (config/schema.py).
    "DEFAULT_SCHEMA_CLASS": "config.schema.MusterAutoSchema",
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Muster API",
    "DESCRIPTION": ("Tournaments, leagues and map campaigns for tabletop wargames: events, "
                    "registration, army lists checked by each game's rules, rounds, pairings, "
                    "results, standings, missions and table tools. The games served are listed "
                    "at /api/v1/game-systems/."),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The error components, NUL refused in input strings, the game systems listed (config/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.postprocess"],
    "COMPONENT_SPLIT_REQUEST": True,
    # Same choices on two fields (club and faction weights): one named enum in the schema.
    # Several fields are called "kind" (missions, detachments, campaign score events): one
    # named enum each, so the schema has no numbered names.
    "ENUM_NAME_OVERRIDES": {
        "PairingWeightEnum": "events.models.WEIGHTS",
        "MissionKindEnum": "missions.models.Mission.KINDS",
        "DetachmentKindEnum": "campaigns.engine.army.KINDS",
        "ScoreEventKindEnum": ["battle_won", "detachment_lost"],
        # A tournament is read with five statuses and created with two (and on_six twice).
        "TournamentStatusEnum": "events.models.Tournament.Status",
        "TournamentOnSixEnum": "events.models.Tournament.OnSix",
        # The tournament's turn system and missions/pregame's are the same two values.
        "TurnSystemEnum": "events.models.Tournament.TurnSystem",
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="muster@localhost")
# EMAIL_URL (e.g. smtp+tls://user:pass@host:587) overrides the backend, server, login and TLS.
globals().update(email_settings(env.str("EMAIL_URL", default="")))
# Links in e-mails (notices, invitations) start with this address: the site as players reach it.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# An invitation to link a walk-in's registration to an account is valid this many days.
MUSTER_INVITATION_DAYS = env.int("MUSTER_INVITATION_DAYS", default=14)

# The game systems served: modules that each expose SYSTEM (systems/registry.py).
MUSTER_GAME_SYSTEMS = ("systems.w40k4.system", "systems.whfb.system", "systems.urban_war.system",
                       "systems.epic40k.system")
# The game system a new event starts with when none is named (the one slug core code knows).
MUSTER_DEFAULT_GAME_SYSTEM = "w40k4"

# HTTPS=true is the production switch: redirects, HSTS and cookies that never travel over HTTP.
HTTPS = env.bool("HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 31536000 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# What a page may load and run (config.security_headers): only Muster's own files, plus what
# carries the response's nonce (nonce="{{ request.csp_nonce }}"); no inline event handler, no
# eval, no framing, no plugin. Styles likewise: a <style> needs the nonce, and a style="..."
# attribute is refused on the players' pages (allowed in the admin only, below).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# The admin's concession: some of its list columns (round status, mission pack state) are built
# in Python with style="color: ..." attributes. Attributes only: a <style> still needs the nonce.
MUSTER_ADMIN_CONTENT_SECURITY_POLICY = {"style-src-attr": [UNSAFE_INLINE]}
# Browser features no Muster page uses, off for the page and anything it embeds. Only names
# browsers know: Chrome's developer console flags an unknown one, such as FLoC's retired
# "interest-cohort" (browsing-topics is its successor).
PERMISSIONS_POLICY = {feature: [] for feature in (
    "accelerometer", "browsing-topics", "camera", "display-capture", "geolocation", "gyroscope",
    "hid", "magnetometer", "microphone", "midi", "payment", "serial", "usb",
    "xr-spatial-tracking")}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
