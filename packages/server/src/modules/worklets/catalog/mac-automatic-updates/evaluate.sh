#!/bin/bash
# Patchwell worklet mac-automatic-updates: evaluation (macOS).
# Checks that macOS checks for and downloads updates automatically and installs security
# responses and system data files on its own: AutomaticCheckEnabled, AutomaticDownload,
# CriticalUpdateInstall and ConfigDataInstall are true in com.apple.SoftwareUpdate (a
# configuration profile's value wins). A key that was never set counts as not enforced.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

KEYS="AutomaticCheckEnabled AutomaticDownload CriticalUpdateInstall ConfigDataInstall"
MANAGED="/Library/Managed Preferences/com.apple.SoftwareUpdate"
LOCAL="/Library/Preferences/com.apple.SoftwareUpdate"

off=""
for key in $KEYS; do
  value=$(defaults read "$MANAGED" "$key" 2>/dev/null </dev/null)
  if [ -z "$value" ]; then
    value=$(defaults read "$LOCAL" "$key" 2>/dev/null </dev/null)
  fi
  if [ "$value" != "1" ]; then
    off="$off $key=${value:-unset}"
  fi
done
if [ -z "$off" ]; then
  echo "Compliant: automatic update checks, downloads and security responses are on."
  exit 0
fi
echo "Automatic updates are not fully on:$off."
exit 1
