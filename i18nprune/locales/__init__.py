"""Locale files: layouts and segments, leaf paths and leaves, merged views, language catalog."""
