"""The translate worker process (`python -m workers`).

Its runtime arrives with the translation engine.
"""
