#!/bin/bash
# Patchwell worklet mac-filevault-enabled: evaluation (macOS).
# Checks that FileVault disk encryption is on for the startup disk ('fdesetup status'
# says "FileVault is On", encryption possibly still in progress).
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

status=$(fdesetup status 2>/dev/null </dev/null)
if echo "$status" | grep -q '^FileVault is On'; then
  progress=$(echo "$status" | grep -Eo 'Percent completed = [0-9.]+' | head -n 1)
  echo "Compliant: FileVault is on${progress:+ (encryption in progress, ${progress#Percent completed = }%)}."
  exit 0
fi
if echo "$status" | grep -q 'Deferred enablement appears to be active'; then
  echo "FileVault is off; enablement is scheduled and waits for the user to log out."
  exit 1
fi
echo "FileVault is off (${status:-no answer from fdesetup})."
exit 1
