#!/bin/bash
# Patchwell worklet mac-filevault-enabled: remediation (macOS).
# FileVault cannot be turned on silently: macOS needs the password of a user who holds a
# secure token. This schedules deferred enablement ('fdesetup enable -defer'): the next
# such user who logs out is asked for their password and encryption starts then. The
# personal recovery key is written to RECOVERY_KEY_FILE (readable by root only); collect
# it and store it in a safe place, or use an MDM to escrow it instead.
# Exit 0 = FileVault is on or its enablement is scheduled, 1 = could not schedule.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: where fdesetup writes the recovery key and the user it was enabled for.
RECOVERY_KEY_FILE='/var/db/patchwell/filevault-recovery.plist'

status=$(fdesetup status 2>/dev/null </dev/null)
if echo "$status" | grep -q '^FileVault is On'; then
  echo "Nothing to do: FileVault is already on."
  exit 0
fi
if echo "$status" | grep -q 'Deferred enablement appears to be active'; then
  echo "Nothing to do: enablement is already scheduled and waits for the user to log out."
  exit 0
fi

umask 077
mkdir -p "$(dirname "$RECOVERY_KEY_FILE")"
if output=$(fdesetup enable -defer "$RECOVERY_KEY_FILE" </dev/null 2>&1); then
  echo "Remediated: FileVault turns on when the next user with a secure token logs out; the recovery key goes to $RECOVERY_KEY_FILE."
  exit 0
fi
echo "Failed: fdesetup could not schedule FileVault: $(echo "$output" | tail -n 1)"
exit 1
