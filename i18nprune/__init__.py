"""i18nprune: find the translation keys JS/TS code uses and keep locale JSON files honest."""

# The single source of the version: pyproject.toml reads it from here (no metadata lookup at
# start-up, which costs every CLI run ~20 ms).
__version__ = "0.1.0"

__all__ = ["__version__"]
