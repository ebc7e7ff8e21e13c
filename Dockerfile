# Image for containerised runs, above all batch `generate` (docs/ci.md has the whole story):
#   docker build -t i18nprune .
#   docker run --rm -v "$PWD:/project" -v i18nprune-cache:/cache \
#     -e I18NPRUNE_TRANSLATE_DEEPL_API_KEY i18nprune generate --target fr --provider deepl
#
# Who writes the files: the container starts as root only to look up who owns the working
# directory (/project, where the project is mounted), hand that user the cache in /cache, and
# drop root for that uid:gid before `i18nprune` runs (i18nprune/container.py). New locale files
# therefore belong to the project's owner, as if they had run the tool themselves, whatever
# their uid. A project owned by root
# (rootless Docker or Podman, where root is the host user) runs as root.
# `--user "$(id -u):$(id -g)"` (or Kubernetes `runAsUser`) works as well and skips all that:
# /cache is world-writable with the sticky bit, like /tmp, so a fresh cache volume suits any uid,
# and HOME is /tmp so nothing needs a home directory. Keep one uid per cache volume in that mode.
#
# The translation cache lives in /cache (I18NPRUNE_HOME): mount a volume to keep it between jobs.
# Nothing is downloaded at run time (tree-sitter grammars and CLDR data are inside the wheels);
# only the translation providers themselves are network calls — `--provider pseudo` needs none.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY i18nprune ./i18nprune
COPY workers ./workers
# The example app `i18nprune demo` writes (the package's `demo` links to it).
COPY examples ./examples
RUN python -m pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
LABEL org.opencontainers.image.title="i18nprune" \
      org.opencontainers.image.description="Keep a web app's translations honest" \
      org.opencontainers.image.licenses="MIT"
# uid 1000 owns /project only for runs with nothing mounted there (`docker run i18nprune languages`).
RUN useradd --uid 1000 --no-create-home --home-dir /tmp --shell /usr/sbin/nologin i18nprune \
    && mkdir -p /project /cache \
    && chown i18nprune:i18nprune /project \
    && chmod 1777 /cache
COPY --from=build /wheels /wheels
# --no-index: everything the image needs was built into /wheels above.
RUN python -m pip install --no-cache-dir --no-index --find-links /wheels i18nprune \
    && rm -rf /wheels
ENV I18NPRUNE_HOME=/cache \
    HOME=/tmp \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    CI=1
WORKDIR /project
# No USER: the entry point drops root itself, for the owner of /project (see above).
ENTRYPOINT ["python", "-I", "-m", "i18nprune.container"]
CMD ["--help"]
