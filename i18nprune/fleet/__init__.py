"""What a fleet of runs shares through Redis: the translation memory and its claims
(`memory`), each provider's rate limit (`limits`), and the connection to the server
(`connection`). Imported only when a run names a shared memory (`cache.url`); a run without one
never loads the Redis client.

See docs/fleet.md.
"""
