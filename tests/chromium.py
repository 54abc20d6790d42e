"""Debian's Chromium as the browser tests and benchmarks/render_html_browser.py launch it: one path, one set of flags."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"  # Debian package chromium; Playwright downloads no browser
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch(playwright):
    """Headless Chromium, launched by its path with the flags above."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
