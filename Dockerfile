# LegalSim's image: web (daphne, the default command), Celery worker and release steps alike
# (docker-compose.yml; docs/operations.md, "Class server with Docker Compose").
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# The catalogues and static files are part of the image; the embedded defaults need no
# service at build time. The app runs as a user of its own that may write media/ only.
RUN python manage.py catalogues_compile \
    && python manage.py collectstatic --noinput --verbosity 0 \
    && useradd --system --uid 10001 --no-create-home --home-dir /app legalsim \
    && mkdir -p /app/media \
    && chown legalsim:legalsim /app/media
USER legalsim

EXPOSE 8000
# No --proxy-headers: Django reads X-Forwarded-For itself (LEGALSIM_TRUSTED_PROXIES).
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "legalsim.asgi:application"]
