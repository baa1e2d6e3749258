#!/bin/bash
# Patchwell worklet mac-automatic-updates: remediation (macOS).
# Sets AutomaticCheckEnabled, AutomaticDownload, CriticalUpdateInstall and
# ConfigDataInstall to true in /Library/Preferences/com.apple.SoftwareUpdate, and
# AutomaticallyInstallMacOSUpdates too when INSTALL_MACOS_UPDATES is 'true' (that one
# restarts the Mac on its own schedule). Values forced by a configuration profile cannot
# be changed here. Exit 0 = on, 1 = failed.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: 'true' to also let macOS install full macOS updates itself.
INSTALL_MACOS_UPDATES='false'

KEYS="AutomaticCheckEnabled AutomaticDownload CriticalUpdateInstall ConfigDataInstall"
MANAGED="/Library/Managed Preferences/com.apple.SoftwareUpdate"
LOCAL="/Library/Preferences/com.apple.SoftwareUpdate"

if [ "$INSTALL_MACOS_UPDATES" = "true" ]; then
  KEYS="$KEYS AutomaticallyInstallMacOSUpdates"
fi
for key in $KEYS; do
  defaults write "$LOCAL" "$key" -bool true </dev/null >/dev/null 2>&1
done

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
  echo "Remediated: automatic update checks, downloads and security responses are on."
  exit 0
fi
echo "Failed: still off:$off (a configuration profile may force them)."
exit 1
