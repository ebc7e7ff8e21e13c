"""The translate worker process (`python -m workers`), started by `i18nprune.pool`.

It reads batches as frames on stdin, calls the provider adapters (`workers.providers`) with one
HTTP client, and answers each batch on stdout (see `i18nprune.pool.messages`).
"""
