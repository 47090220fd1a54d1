#!/usr/bin/env bash
# Bring in what the project needs, once: Debian packages, then a virtual
# environment at .venv with the pinned Python packages. A second run installs
# nothing. Used by `./run video` (bash scripts/setup.sh) and `./run test`
# (bash scripts/setup.sh test, which also brings in the test-only packages).
# A bare Debian 12 (python3 only) is enough: everything else is installed here.
set -euo pipefail
cd "$(dirname "$0")/.."

# ffmpeg and espeak-ng: the render's tools. DejaVu: the font of the scenes and of the
# burned-in captions. python3-venv: `python3 -m venv` (ensurepip).
# pycairo and manimpango have no Linux wheels on PyPI, so pip compiles them: a C
# compiler and C library headers, Python's headers, and Cairo and Pango with pkg-config.
APT_PACKAGES=(ffmpeg espeak-ng python3-venv fonts-dejavu-core
              gcc libc6-dev python3-dev pkg-config libcairo2-dev libpango1.0-dev)
# Test-only: a real browser and its WebDriver for the slide deck's browser test.
TEST_APT_PACKAGES=(chromium chromium-driver)

case "${1:-}" in
    "") ;;
    test) APT_PACKAGES+=("${TEST_APT_PACKAGES[@]}") ;;
    *) echo "usage: bash scripts/setup.sh [test]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
    apt_cmd="apt-get update && apt-get install -y ${missing[*]}"
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing system packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    elif command -v sudo >/dev/null 2>&1; then
        echo "setup: installing system packages with sudo: ${missing[*]}"
        sudo apt-get update -qq
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "setup: missing system packages; as root run: $apt_cmd" >&2
        exit 2
    fi
fi

PYTHON=${PYTHON:-python3}
stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    echo "setup: building .venv with the pinned packages (first run takes a few minutes)"
    # A .venv left by an attempt that failed halfway (no pip in it, or a python that
    # no longer runs) is built again from scratch.
    if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
        rm -rf .venv
        "$PYTHON" -m venv .venv
    fi
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".[test]"
    rm -f .venv/.installed-*
    touch "$stamp"
fi
