"""LegalSim settings, read from the environment (see README "Configuration").

Embedded defaults need no service: SQLite, the in-memory channel layer, eager Celery and
the offline scripted agents. Setting ``DATABASE_URL`` and ``REDIS_URL`` switches to the
production path (PostgreSQL, Redis channel layer, Celery over Redis).
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from legalsim.env import env_bool, env_choice, env_float, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "django-insecure-legalsim-development-key-change-me")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

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
    "annotation",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "legalsim.roles.abilities_context",
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
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}
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
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
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
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A batch run whose worker has not beaten its heart for this long is sent to another worker.
LEGALSIM_BATCH_LEASE_S = env_float("LEGALSIM_BATCH_LEASE_S", 60.0, minimum=1.0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env_str("LEGALSIM_MEDIA_ROOT") or BASE_DIR / "media")
WHITENOISE_USE_FINDERS = DEBUG

# Agents (see README "Plugging in an LLM server").
LEGALSIM_AGENT_BACKEND = env_choice("LEGALSIM_AGENT_BACKEND", "scripted", ("scripted", "openai"))
OPENAI_BASE_URL = env_str("OPENAI_BASE_URL")
OPENAI_API_KEY = env_str("OPENAI_API_KEY")
LEGALSIM_MODEL = env_str("LEGALSIM_MODEL", "qwen3.5-plus")
LEGALSIM_MODEL_TARGET = env_str("LEGALSIM_MODEL_TARGET") or LEGALSIM_MODEL
LEGALSIM_MODEL_JUDGE = env_str("LEGALSIM_MODEL_JUDGE") or LEGALSIM_MODEL
LEGALSIM_SCRIPTED_TOKENS_PER_S = env_float("LEGALSIM_SCRIPTED_TOKENS_PER_S", 40.0, minimum=0.0)
LEGALSIM_TEMPERATURE = env_float("LEGALSIM_TEMPERATURE", 0.7, minimum=0.0)
LEGALSIM_TOP_P = env_float("LEGALSIM_TOP_P", 0.95, minimum=0.0)
LEGALSIM_MAX_TOKENS = int(env_float("LEGALSIM_MAX_TOKENS", 4096, minimum=1))
LEGALSIM_LLM_TIMEOUT_S = env_float("LEGALSIM_LLM_TIMEOUT_S", 120.0, minimum=1.0)
LEGALSIM_LLM_BACKOFF_S = env_float("LEGALSIM_LLM_BACKOFF_S", 1.0, minimum=0.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LEGALSIM_LOG_LEVEL", "INFO")},
}

# REST API (api/, README "REST API"): token auth for scripts, session auth for the browsable
# API; every view declares the ability it needs (api.permissions.HasAbility).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.permissions.HasAbility"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_RATES": {"login": env_str("LEGALSIM_API_LOGIN_RATE", "10/minute")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "LegalSim API",
    "DESCRIPTION": "Cases, live trials, trajectories, rating studies and agreement reports. "
    "Authenticate with `Authorization: Token KEY` (POST /api/token/ or `manage.py api_token USERNAME`).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "TrialStatusEnum": "trials.models.Trial.Status",
        "AssignmentStatusEnum": "annotation.models.Assignment.Status",
    },
}
