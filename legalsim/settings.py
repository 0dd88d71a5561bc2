"""LegalSim settings, read from the environment (docs/configuration.md).

Embedded defaults need no service: SQLite, the in-memory channel layer, eager Celery and
the offline scripted agents. Setting ``DATABASE_URL`` and ``REDIS_URL`` switches to the
production path (PostgreSQL, Redis channel layer, Celery over Redis).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from legalsim.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_model_context,
    env_prices,
    env_seat_models,
    env_str,
    production_check,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
DEVELOPMENT_SECRET_KEY = "django-insecure-legalsim-development-key-change-me"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", DEVELOPMENT_SECRET_KEY)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
# An explicit switch, not "DEBUG is off": tests, `dev.py test` and a local daphne on plain
# http run with DEBUG off too, and secure cookies would lock them out. A deployment says
# DJANGO_ENV=production and gets HTTPS-only cookies, HSTS and a refusal to start unsafely.
PRODUCTION = env_choice("DJANGO_ENV", "development", ("development", "production")) == "production"
if PRODUCTION:
    production_check(debug=DEBUG, secret_key=SECRET_KEY, development_key=DEVELOPMENT_SECRET_KEY)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "trials",
    "scoring",
    "annotation",
    "arena",
    "classroom",
    "accounts",
    "agentbench",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api",
    "legalsim",
]

MIDDLEWARE = [
    "legalsim.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "legalsim.csp.ContentSecurityPolicyMiddleware",
    "legalsim.uploads.UploadLimitMiddleware",
    "legalsim.text_input.TextInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "annotation.middleware.StudyErrorMiddleware",
]

ROOT_URLCONF = "legalsim.urls"
ASGI_APPLICATION = "legalsim.asgi.application"

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
                "legalsim.roles.abilities_context",
                "classroom.context_processors.feedback_unread",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory: the browser tests' daphne process must open the test database too.
    # A DATABASE_URL naming its own SQLite file gets its own test file beside it, so test runs
    # sharing one checkout do not share (and break) one test database.
    DATABASES["default"]["TEST"] = {
        "NAME": f"{DATABASES['default']['NAME']}.test"
        if env_str("DATABASE_URL")
        else str(BASE_DIR / ".test-db.sqlite3")
    }
    # SQLite ignores SELECT ... FOR UPDATE; immediate transactions serialise writers instead.
    # WAL lets readers go on while one writes; NORMAL syncs at checkpoints, not every commit
    # (a power cut may lose the last commits, never corrupt the file).
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3's connection pool: requests, the live driver's threads and workers borrow a
    # connection and give it back instead of opening one each time (a PostgreSQL connection
    # costs a process on the server). Per process, at most LEGALSIM_DB_POOL_SIZE at once.
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": int(env_float("LEGALSIM_DB_POOL_SIZE", 20, minimum=1)), "timeout": 20}
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    # Pub/sub, not channels_redis' list-based layer: a trial's frames go to whoever listens
    # right now (at most once), which is all the room needs, since a socket that missed
    # frames resumes from the database; at 100 live trials the list-based layer's per-frame
    # round trips put p99 latency near 3 s, pub/sub keeps it under 100 ms (ws_load.py).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "legalsim.channel_layers.LocalFirstRedisLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "legalsim.channel_layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# Deployments (or test runs) sharing one Redis keep their tasks apart by queue name.
CELERY_TASK_DEFAULT_QUEUE = env_str("LEGALSIM_CELERY_QUEUE", "celery")
# The cache holds the login throttle's counters: with several processes it must be shared
# (Redis), or each process would count failures on its own.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "legalsim"}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "legalsim"}
    )
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A batch run whose worker has not beaten its heart for this long is sent to another worker.
LEGALSIM_BATCH_LEASE_S = env_float("LEGALSIM_BATCH_LEASE_S", 60.0, minimum=1.0)
# A live trial's driver holds a lease it renews every third of this; a trial whose lease ran
# out (its process died or restarted) is taken over by the next process that looks.
LEGALSIM_DRIVER_LEASE_S = env_float("LEGALSIM_DRIVER_LEASE_S", 15.0, minimum=1.0)
# The most rows a roster file may have (docs/configuration.md): a longer file is refused whole,
# before anyone is created. Rosters are enrolled by a background job in transactions of a
# few hundred rows, so other writers wait for one batch at most.
LEGALSIM_ROSTER_MAX_ROWS = env_int("LEGALSIM_ROSTER_MAX_ROWS", 5_000, minimum=1)

# Outgoing e-mail (password-reset links). Empty EMAIL_HOST: none is sent, and the reset page
# says so. Django's default is no timeout: an unreachable host would hang the request.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "webmaster@localhost")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"
AUTHENTICATION_BACKENDS = ["legalsim.login_throttle.ThrottledModelBackend", "legalsim.roles.AbilityBackend"]
# Failed password checks per username and per address within the window before both are
# refused until it passes; several students behind one NAT share an address, hence the larger figure.
LEGALSIM_LOGIN_MAX_FAILURES = env_int("LEGALSIM_LOGIN_MAX_FAILURES", 5, minimum=1)
LEGALSIM_LOGIN_MAX_FAILURES_PER_IP = env_int("LEGALSIM_LOGIN_MAX_FAILURES_PER_IP", 20, minimum=1)
LEGALSIM_LOGIN_WINDOW_S = 60 * env_int("LEGALSIM_LOGIN_WINDOW_MIN", 15, minimum=1)

# Security headers and cookies. The headers are safe on plain http and always on; what needs
# HTTPS (secure cookies, HSTS, the redirect) is on in production.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
# Joining the browsers' preload list cannot be undone quickly, so it is a deliberate opt-in;
# without it `check --deploy` would warn (W021) on every deployment.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# How many reverse proxies stand in front of daphne, each appending the address it received a
# request from to X-Forwarded-For (deploy/nginx.conf: one). The client's address is the N-th
# entry from the right (legalsim.login_throttle.client_address; DRF's NUM_PROXIES below); 0
# means no proxy: REMOTE_ADDR. daphne runs without --proxy-headers, which would take the
# left-most entry, the one a client writes itself.
LEGALSIM_TRUSTED_PROXIES = env_int("LEGALSIM_TRUSTED_PROXIES", 0, minimum=0)
# Behind a TLS-terminating proxy Django sees plain http; trust the proxy's header only when
# told to (or when a trusted proxy is configured), since a client could set it itself when
# nothing strips it.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("DJANGO_BEHIND_PROXY", LEGALSIM_TRUSTED_PROXIES > 0) else None
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Request bodies. Form posts (the longest is a 30-item questionnaire: ~90 fields) stay far
# below these; anything larger than LEGALSIM_MAX_UPLOAD_MB is refused before a view reads it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 10
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
LEGALSIM_MAX_UPLOAD_BYTES = env_int("LEGALSIM_MAX_UPLOAD_MB", 20, minimum=1) * 1024 * 1024

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
"""The interface languages, each named in itself. A person's choice (the header's switch) is
remembered on their profile and in a cookie; otherwise the browser's Accept-Language decides."""
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = PRODUCTION
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env_str("LEGALSIM_MEDIA_ROOT") or BASE_DIR / "media")
WHITENOISE_USE_FINDERS = DEBUG

# Agents (docs/llm-servers.md).
LEGALSIM_AGENT_BACKEND = env_choice("LEGALSIM_AGENT_BACKEND", "scripted", ("scripted", "openai"))
OPENAI_BASE_URL = env_str("OPENAI_BASE_URL")
OPENAI_API_KEY = env_str("OPENAI_API_KEY")
LEGALSIM_MODEL = env_str("LEGALSIM_MODEL", "qwen3.5-plus")
LEGALSIM_MODEL_TARGET = env_str("LEGALSIM_MODEL_TARGET") or LEGALSIM_MODEL
LEGALSIM_MODEL_JUDGE = env_str("LEGALSIM_MODEL_JUDGE") or LEGALSIM_MODEL
# Per-seat models and servers (docs/llm-servers.md, "Per-seat models"); the keys are checked by trials.
LEGALSIM_SEAT_MODELS = env_seat_models("LEGALSIM_SEAT_MODELS")
# Context windows by model (tokens) where /v1/models does not say (docs/llm-servers.md).
LEGALSIM_MODEL_CONTEXT = env_model_context("LEGALSIM_MODEL_CONTEXT")
# Prices by model per million tokens (input, cached input, output) for the cost of each call.
LEGALSIM_PRICES = env_prices("LEGALSIM_PRICES")
# Sent with every model call when set, for servers that take a seed (recorded in the trajectory).
LEGALSIM_SEED = env_int("LEGALSIM_SEED", 0) if env_str("LEGALSIM_SEED").strip() else None
LEGALSIM_SCRIPTED_TOKENS_PER_S = env_float("LEGALSIM_SCRIPTED_TOKENS_PER_S", 40.0, minimum=0.0)
# After a statement a person may object to, the live trial waits this long for the objection.
LEGALSIM_OBJECTION_GRACE_S = env_float("LEGALSIM_OBJECTION_GRACE_S", 4.0, minimum=0.0)
# The longest statement (or document, all sections together) a person may send in one ``say``.
LEGALSIM_MAX_SAY_CHARS = env_int("LEGALSIM_MAX_SAY_CHARS", 20_000, minimum=100)
LEGALSIM_TEMPERATURE = env_float("LEGALSIM_TEMPERATURE", 0.7, minimum=0.0)
LEGALSIM_TOP_P = env_float("LEGALSIM_TOP_P", 0.95, minimum=0.0)
LEGALSIM_MAX_TOKENS = int(env_float("LEGALSIM_MAX_TOKENS", 4096, minimum=1))
LEGALSIM_LLM_TIMEOUT_S = env_float("LEGALSIM_LLM_TIMEOUT_S", 120.0, minimum=1.0)
LEGALSIM_LLM_BACKOFF_S = env_float("LEGALSIM_LLM_BACKOFF_S", 1.0, minimum=0.0)
# Requests one process sends at once to one model server (base URL); more wait their turn.
LEGALSIM_MAX_IN_FLIGHT = env_int("LEGALSIM_MAX_IN_FLIGHT", 64, minimum=1)

# Secrets never reach a log line (legalsim/log_redaction.py); the HTTP client libraries log
# request bodies (prompts, case text) at DEBUG, so they stay at WARNING whatever the root level.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "legalsim.log_redaction.SecretRedactingFilter"}},
    "loggers": {name: {"level": "WARNING"} for name in ("openai", "httpx2", "httpcore2")},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LEGALSIM_LOG_LEVEL", "INFO")},
}

# REST API (api/, docs/api.md): token auth for scripts, session auth for the browsable
# API; every view declares the ability it needs (api.permissions.HasAbility).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.HasAbility"],
    # DRF's parsers with the site's text rule on everything they decode (legalsim/text_input.py).
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser", "api.parsers.FormParser", "api.parsers.MultiPartParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_RATES": {"login": env_str("LEGALSIM_API_LOGIN_RATE", "10/minute")},
    # The throttle's client address: the same count as the login throttle (0: REMOTE_ADDR;
    # DRF's default, None, would key on the whole X-Forwarded-For, which the client writes).
    "NUM_PROXIES": LEGALSIM_TRUSTED_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "LegalSim API",
    "DESCRIPTION": "Cases, live trials, trajectories, rating studies and agreement reports. "
    "Authenticate with `Authorization: Token KEY` (POST /api/token/ or `manage.py api_token USERNAME`).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the pinned copy drf-spectacular-sidecar ships (requirements.txt),
    # served as this site's static files: no CDN, no "@latest" (api/urls.py, docs/security.md).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TrialStatusEnum": "trials.models.Trial.Status",
        "AssignmentStatusEnum": "annotation.models.Assignment.Status",
    },
}
