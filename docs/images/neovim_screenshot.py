"""Make docs/images/neovim.png: Neovim (0.7+) in tmux with `i18nprune lsp`, showing the diagnostics
of the example project of docs/editors.md and the hover of a key.

Needs tmux, nvim and Pillow; run from the repository with i18nprune installed:

    python docs/images/neovim_screenshot.py [OUTPUT.png]

It writes the project into a temp dir, starts Neovim in a detached tmux pane with the setup of
docs/editors.md, waits for the diagnostics, presses K on a key, captures the pane with its colours
(`tmux capture-pane -e`) and draws the text on a PNG with DejaVu Sans Mono.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

COLUMNS, ROWS = 112, 22
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 15
FOREGROUND, BACKGROUND = (220, 220, 220), (24, 24, 24)

APP = """\
import { useTranslation } from "react-i18next";

export function App(name: string, section: string) {
  const { t } = useTranslation();
  const title = t('home.title');
  const pay = t('checkout.pay');
  const about = t('nav.about');
  const current = t(`nav.${section}`);
  const greeting = t('home.greeting', { name });
  return [title, pay, about, current, greeting].join(" ");
}
"""
LOCALES = {
    "en": {"home": {"title": "Welcome", "greeting": "Hello, {{name}}!"}, "nav": {"about": "About"}},
    "fr": {"home": {"title": "Bienvenue"}, "nav": {"about": "À propos"}},
}
INIT = """\
vim.o.termguicolors = false
vim.o.signcolumn = 'yes'
vim.o.shortmess = vim.o.shortmess .. 'F'
vim.diagnostic.config({ virtual_text = { prefix = '●' }, severity_sort = true })
vim.lsp.handlers['textDocument/hover'] =
  vim.lsp.with(vim.lsp.handlers.hover, { border = 'rounded' })
vim.cmd('highlight NormalFloat ctermbg=236 ctermfg=252')
vim.cmd('highlight FloatBorder ctermbg=236 ctermfg=244')
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'vue', 'svelte',
              'json' },
  callback = function(args)
    local client = vim.lsp.start_client({
      name = 'i18nprune',
      cmd = CMD,
      root_dir = vim.fn.getcwd(),
    })
    vim.lsp.buf_attach_client(args.buf, client)
    vim.keymap.set('n', 'K', vim.lsp.buf.hover, { buffer = args.buf })
  end,
})
"""

# The 16 ANSI colours as xterm draws them; 16-255 follow the xterm cube and grey ramp.
BASE16 = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16),
    (36, 114, 200), (188, 63, 188), (17, 168, 205), (229, 229, 229),
    (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
    (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]  # fmt: skip


def palette(index: int) -> tuple[int, int, int]:
    if index < 16:
        return BASE16[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[index // 36], steps[(index // 6) % 6], steps[index % 6]
    grey = 8 + 10 * (index - 232)
    return grey, grey, grey


Cell = tuple[str, tuple[int, int, int], tuple[int, int, int], bool]


def rows_of(capture: str) -> list[list[Cell]]:
    """Each captured row's characters with their colours. tmux writes an SGR sequence only where
    the attributes change, so they carry over from one row to the next."""
    foreground, background, bold, reverse = FOREGROUND, BACKGROUND, False, False
    rows: list[list[Cell]] = [[]]
    for token in re.split(r"(\x1b\[[0-9;:]*m)", capture):
        if not token.startswith("\x1b["):
            for char in token:
                if char == "\n":
                    rows.append([])
                    continue
                fg, bg = (background, foreground) if reverse else (foreground, background)
                rows[-1].append((char, fg, bg, bold))
            continue
        codes = [int(c) if c else 0 for c in re.split("[;:]", token[2:-1])] or [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                foreground, background, bold, reverse = FOREGROUND, BACKGROUND, False, False
            elif code == 1:
                bold = True
            elif code == 22:
                bold = False
            elif code == 7:
                reverse = True
            elif code == 27:
                reverse = False
            elif 30 <= code <= 37:
                foreground = palette(code - 30)
            elif 90 <= code <= 97:
                foreground = palette(code - 90 + 8)
            elif 40 <= code <= 47:
                background = palette(code - 40)
            elif 100 <= code <= 107:
                background = palette(code - 100 + 8)
            elif code == 39:
                foreground = FOREGROUND
            elif code == 49:
                background = BACKGROUND
            elif code in (38, 48) and i + 1 < len(codes):
                if codes[i + 1] == 5:
                    colour = palette(codes[i + 2])
                    i += 2
                else:
                    colour = (codes[i + 2], codes[i + 3], codes[i + 4])
                    i += 4
                if code == 38:
                    foreground = colour
                else:
                    background = colour
            i += 1
    return rows


def render(capture: str, output: Path) -> None:
    font, bold = ImageFont.truetype(FONT, SIZE), ImageFont.truetype(BOLD, SIZE)
    ascent, descent = font.getmetrics()  # rows as tall as the glyphs: box lines join up
    width, height = round(font.getlength("M")), ascent + descent
    image = Image.new("RGB", (COLUMNS * width + 16, ROWS * height + 16), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, cells in enumerate(rows_of(capture)[:ROWS]):
        for column, (char, fg, bg, is_bold) in enumerate(cells[:COLUMNS]):
            x, y = 8 + column * width, 8 + row * height
            draw.rectangle([x, y, x + width - 1, y + height - 1], fill=bg)
            draw.text((x, y), char, font=bold if is_bold else font, fill=fg)
    image.save(output)


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", "i18nprune-shot", "-f", "/dev/null", *args], check=True,
                          capture_output=True, text=True).stdout  # fmt: skip


def main() -> None:
    output = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images/neovim.png").resolve()
    with tempfile.TemporaryDirectory(prefix="i18nprune-") as temp:
        project = Path(temp) / "app"
        (project / "src").mkdir(parents=True)
        (project / "locales").mkdir()
        (project / "src/app.ts").write_text(APP)
        for code, values in LOCALES.items():
            (project / f"locales/{code}.json").write_text(json.dumps(values, indent=2) + "\n")
        command = json.dumps([sys.executable, "-m", "i18nprune", "lsp"])
        init = Path(temp) / "init.lua"
        init.write_text(f"CMD = vim.json.decode([==[{command}]==])\n" + INIT)
        tmux("new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), "-c", str(project),
             f"TERM=xterm-256color nvim -u {init} src/app.ts")  # fmt: skip
        try:
            for _ in range(200):  # the diagnostics: their virtual text shows
                if "missing from the source" in tmux("capture-pane", "-p"):
                    break
                time.sleep(0.05)
            tmux("send-keys", "9G", "f.", "h", "K")  # on `home.greeting`, then hover
            for _ in range(200):
                if "(source)" in tmux("capture-pane", "-p"):
                    break
                time.sleep(0.05)
            capture = ""
            while capture != (capture := tmux("capture-pane", "-e", "-p")):
                time.sleep(0.2)  # until Neovim has finished drawing
            render(capture, output)
        finally:
            tmux("kill-server")
    print(output)


if __name__ == "__main__":
    main()
