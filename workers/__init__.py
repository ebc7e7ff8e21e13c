"""The translate worker process (`python -m workers`); its runtime arrives with the translation engine."""
