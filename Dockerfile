# Image for containerised batch generation:
#   docker build -t i18nprune .
#   docker run --rm -v "$PWD:/project" -v i18nprune-cache:/cache \
#     -e I18NPRUNE_TRANSLATE_DEEPL_API_KEY i18nprune generate --target fr --provider deepl
# The translation cache lives in /cache (I18NPRUNE_HOME): mount a volume to keep it between jobs.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY i18nprune ./i18nprune
COPY workers ./workers
RUN python -m pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
RUN useradd --create-home --uid 1000 i18nprune \
    && mkdir -p /project /cache && chown i18nprune:i18nprune /project /cache
COPY --from=build /wheels /wheels
RUN python -m pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
ENV I18NPRUNE_HOME=/cache \
    PYTHONUNBUFFERED=1 \
    CI=1
USER i18nprune
WORKDIR /project
ENTRYPOINT ["i18nprune"]
CMD ["--help"]
