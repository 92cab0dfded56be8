#!/usr/bin/env bash
# Finds a Chromium (or Chrome) for the browser tests of the emulator's
# interactive documentation (internal/emulator/swagger_browser_test.go),
# which make test requires (RMS_REQUIRE_BROWSER), and prints its path. When
# none is found it installs Debian's chromium (about 30 s with a nearby
# mirror), as root or through sudo, and stops with a clear message when
# neither is possible. A package manager that another process is using
# (unattended upgrades, another job's apt-get) is waited for, not taken for
# a failure. RMS_CHROMIUM names a browser binary to use instead. make test
# and .ci/run call it, so that a fresh machine needs no set-up by hand;
# make unit installs nothing and does not.
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
	# apt-get waits up to this long for the dpkg lock
	# (/var/lib/dpkg/lock-frontend) another apt-get or dpkg holds; update's
	# lock of the package lists (/var/lib/apt/lists/lock) is not covered on
	# every apt release, so update is also tried again, a bounded number of
	# times, while it fails.
	lock_wait=300 update_tries=10 update_pause=30
	apt_get() { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$lock_wait" "$@"; }
	update() {
		local try
		for ((try = 1; try <= update_tries; try++)); do
			apt_get update -q && return 0
			if ((try < update_tries)); then
				echo "chromium.sh: apt-get update failed (try $try of $update_tries; another package manager may hold its lock): trying again in ${update_pause}s" >&2
				sleep "$update_pause"
			fi
		done
		return 1
	}
	if ! { update && apt_get install -y -q --no-install-recommends chromium; } >&2 || ! find_browser; then
		echo "error: could not install chromium with apt-get; the browser tests of the emulator's documentation need it in make test." >&2
		echo "       Install it by hand or set RMS_CHROMIUM to a Chromium/Chrome binary." >&2
		exit 1
	fi
fi
echo "$browser"
