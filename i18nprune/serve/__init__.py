"""`i18nprune serve`: JSON-RPC 2.0 over stdio for editors, desktop apps and scripted hosts
(see docs/serve.md).
"""

from i18nprune.serve.session import ServeSettings, serve_stdio

__all__ = ["ServeSettings", "serve_stdio"]
