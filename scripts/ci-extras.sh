#!/usr/bin/env bash
# On a fresh CI machine (as root, with apt): Debian's Chromium and Mosquitto, for the browser
# tests and the MQTT tests against the broker the field runs. Never fatal: without them those
# tests skip (Chromium) or use amqtt from PyPI (Mosquitto), each saying so.
set -uo pipefail
wanted=()
command -v chromium >/dev/null || wanted+=(chromium)
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || wanted+=(mosquitto)
if [ "${#wanted[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "== not root with apt-get: ${wanted[*]} not installed (browser tests skip, MQTT uses amqtt)"
    exit 0
fi
echo "== apt-get install ${wanted[*]} (browser and broker tests)"
export DEBIAN_FRONTEND=noninteractive
if ! timeout 900 apt-get update -qq || \
   ! timeout 900 apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null; then
    echo "== could not install ${wanted[*]}: browser tests skip, MQTT tests use amqtt"
fi
# A package install may start the broker as a service; the tests start their own.
if command -v systemctl >/dev/null; then
    systemctl stop mosquitto >/dev/null 2>&1 || true
fi
exit 0
