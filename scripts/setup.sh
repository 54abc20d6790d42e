#!/bin/sh
# Installs everything the toolkit needs on Debian 12 (run as root) into ./.venv; --test adds the test tools.
# Idempotent: Debian packages already present and an existing .venv are reused.
set -eu
cd "$(dirname "$0")/.."

# Debian packages the toolkit itself uses (each is named with its reason in README.md).
APT_PACKAGES="python3 python3-venv python3-pip xsltproc texlive-xetex texlive-humanities texlive-lang-arabic latexmk fonts-sil-charis fonts-hosny-amiri fonts-dejavu-core fonts-droid-fallback"
# Debian packages only the tests use (reference validator, PDF inspection, ...).
APT_TEST_PACKAGES="jing poppler-utils chromium trang"
# npm installs axe-core, the accessibility checker the web-edition browser tests inject into the page. Debian's
# npm package is taken only where no npm is there: a machine with Node.js from elsewhere (whose nodejs package
# conflicts with Debian's npm) already has one.

with_tests=no
[ "${1:-}" = "--test" ] && with_tests=yes

packages="$APT_PACKAGES"
[ "$with_tests" = yes ] && packages="$packages $APT_TEST_PACKAGES"
[ "$with_tests" = yes ] && ! command -v npm >/dev/null 2>&1 && packages="$packages npm"

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    missing=""
    for package in $packages; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing="$missing $package"
    done
    if [ -n "$missing" ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
    fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
if [ "$with_tests" = yes ]; then
    .venv/bin/python -m pip install -q -e ".[test]"
else
    .venv/bin/python -m pip install -q -e .
fi

if [ "$with_tests" = yes ]; then
    # axe-core (npm, pinned) for tests/render/test_browser.py's accessibility check, into .venv/node (git ignores
    # .venv); the tests read .venv/node/node_modules/axe-core/axe.min.js.
    # Node trusts the system's certificate store (as apt and pip do), so a machine whose HTTPS goes through a
    # proxy with its own authority in /etc/ssl/certs installs under env -i too (Node's own list lacks it).
    [ -f .venv/node/node_modules/axe-core/axe.min.js ] ||
        NODE_OPTIONS=--use-openssl-ca npm install --prefix .venv/node --no-save --no-audit --no-fund axe-core@4.14.1 >/dev/null
fi
