"""`i18nprune lsp`: the Language Server Protocol (3.17) over stdio, on the engine `serve` uses."""

from i18nprune.lsp.server import LspSettings, serve_lsp

__all__ = ["LspSettings", "serve_lsp"]
