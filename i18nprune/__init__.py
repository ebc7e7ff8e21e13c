"""i18nprune: find the translation keys JS/TS code uses and keep locale JSON files honest."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("i18nprune")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

__all__ = ["__version__"]
