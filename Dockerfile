# «Адмирал» online: the app image. Two stages: the builder installs the package and its dependencies into a
# virtualenv; the runtime stage copies that virtualenv and the project tree (templates/, static/, migrations/ and
# alembic.ini are found beside src/, so the package is installed in editable mode from /app) and runs as a
# non-root user. See README "Deploy" and docker-compose.yml.
ARG PYTHON_IMAGE=python:3.12-slim

FROM ${PYTHON_IMAGE} AS builder
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY src ./src
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
RUN /opt/venv/bin/pip install -e . \
    && /opt/venv/bin/python -c "import admiral.web, admiral.cli" \
    && find /app /opt/venv -name __pycache__ -prune -exec rm -rf {} +

FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ENVIRONMENT=production \
    HOST=0.0.0.0 \
    PORT=8000
RUN groupadd --system --gid 10001 admiral \
    && useradd --system --uid 10001 --gid admiral --home-dir /app --no-create-home --shell /usr/sbin/nologin admiral
COPY --from=builder /opt/venv /opt/venv
COPY --from=builder /app /app
WORKDIR /app
# ./data/ holds the SQLite file and mail when no DATABASE_URL / MAIL_BACKEND=smtp is given (a single instance).
RUN mkdir -p /app/data && chown admiral:admiral /app/data
USER admiral
EXPOSE 8000
# Liveness only (the process answers); readiness (database, Redis) is /readyz, for the proxy or orchestrator.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]
# HOST and PORT (above, or -e) decide where it listens: the HEALTHCHECK reads the same PORT.
CMD ["admiral", "serve"]
