"""Human renderers, one module per command: they print an op's envelope for a person."""
