"""`python -m i18nprune` runs the command line."""

from i18nprune.cli.app import main

main()
