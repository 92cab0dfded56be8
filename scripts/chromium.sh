#!/usr/bin/env bash
# Finds a Chromium (or Chrome) for the browser test of the emulator's
# interactive documentation (internal/emulator/swagger_browser_test.go),
# which fails without one, and prints its path. When none is found it
# installs Debian's chromium (about 30 s with a nearby mirror), as root or
# through sudo, and stops with a clear message when neither is possible.
# RMS_CHROMIUM names a browser binary to use instead. make test, make unit
# and .ci/run call it, so that a fresh machine needs no set-up by hand.
set -euo pipefail
browser="${RMS_CHROMIUM:-}"
find_browser() {
	local name
	for name in chromium chromium-browser google-chrome google-chrome-stable; do
		if command -v "$name" >/dev/null; then browser=$(command -v "$name"); return 0; fi
	done
	return 1
}
if [ -z "$browser" ] && ! find_browser; then
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if ! command -v sudo >/dev/null; then
			echo "error: chromium is missing and this user cannot install it (not root, no sudo)." >&2
			echo "       Install it (apt-get install -y --no-install-recommends chromium) or set RMS_CHROMIUM to a Chromium/Chrome binary." >&2
			exit 1
		fi
		sudo=(sudo -n)
	fi
	if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; } >&2 || ! find_browser; then
		echo "error: could not install chromium with apt-get; the browser test of the emulator's documentation needs it." >&2
		echo "       Install it by hand or set RMS_CHROMIUM to a Chromium/Chrome binary." >&2
		exit 1
	fi
fi
echo "$browser"
