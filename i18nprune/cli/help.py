"""Each command's `--help`: its own flags, then the global flags (accepted after the command
too), then an example."""

from __future__ import annotations

import copy
from typing import Any

import click
from typer.core import TyperCommand

# One command line a command's help ends with: the common use, runnable as shown.
EXAMPLES: dict[str, str] = {
    "config": "i18nprune config --json",
    "doctor": "i18nprune doctor --strict",
    "validate": "i18nprune validate --format github",
    "languages": "i18nprune languages --filter portug",
    "langs": "i18nprune langs --filter portug",
    "providers": "i18nprune providers --json",
    "missing": "i18nprune missing --check",
    "sync": "i18nprune sync --dry-run",
    "generate": "i18nprune generate --target de,fr --provider deepl",
    "cleanup": "i18nprune cleanup --dry-run",
    "quality": "i18nprune quality --target fr --format github",
    "review": "i18nprune review --target fr --accept all",
    "report": "i18nprune report --out report.html --baseline main-report.json",
    "init": "i18nprune init --yes",
    "demo": "i18nprune demo ./i18nprune-demo",
    "serve": "i18nprune -C ./app serve --allow-writes",
    "lsp": "i18nprune lsp  (started by the editor; see docs/editors.md)",
    "locales list": "i18nprune locales list --json",
    "locales dynamic": "i18nprune locales dynamic --full",
    "locales delete": "i18nprune locales delete --target fr --dry-run",
    "workspace list": "i18nprune workspace list --json",
}
_GLOBAL_PANEL = "Global options (before or after the command)"
# The root's flags that mean nothing after a command.
_ROOT_ONLY = frozenset({"version"})


def example_epilog(path: str) -> str:
    """The help's last paragraph for the command `path` (`locales list`)."""
    example = EXAMPLES.get(path)
    return f"Example: {example}" if example else ""


class GlobalHelpCommand(TyperCommand):
    """A command whose help page also lists the global flags, under their own heading."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        own = self.params
        self.params = [*own, *_global_params(ctx)]
        try:
            super().format_help(ctx, formatter)
        finally:
            self.params = own


def _global_params(ctx: click.Context) -> list[click.Parameter]:
    """Copies of the root command's flags, shown under the global heading."""
    root = ctx.find_root().command
    shown = []
    for param in root.params:
        if param.name in _ROOT_ONLY:
            continue
        copied: Any = copy.copy(param)
        copied.rich_help_panel = _GLOBAL_PANEL
        shown.append(copied)
    return shown
