"""The translate worker process (`python -m i18nprune_workers`), started by `i18nprune.pool`.

It reads batches as frames on stdin, calls the provider adapters (`.providers`) with one HTTP
client, and answers each batch on stdout (see `i18nprune.pool.messages`).

This folder installs as the package `i18nprune_workers` (a top-level `workers` in site-packages
could belong to anyone), so its modules import each other relatively: the same files are also
type-checked under the folder's name.
"""
