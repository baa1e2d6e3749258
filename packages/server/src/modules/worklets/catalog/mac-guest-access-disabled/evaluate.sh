#!/bin/bash
# Patchwell worklet mac-guest-access-disabled: evaluation (macOS).
# Checks that the guest user cannot log in (com.apple.loginwindow GuestEnabled is not
# true) and that guests cannot open shared folders over SMB (com.apple.smb.server
# AllowGuestAccess is not true). Unset values are macOS's default: off.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

login=$(defaults read /Library/Preferences/com.apple.loginwindow GuestEnabled 2>/dev/null </dev/null)
smb=$(defaults read /Library/Preferences/SystemConfiguration/com.apple.smb.server AllowGuestAccess 2>/dev/null </dev/null)
if [ "$login" != "1" ] && [ "$smb" != "1" ]; then
  echo "Compliant: the guest account and guest file sharing are off."
  exit 0
fi
echo "Guest access is on (guest login: ${login:-unset}, SMB guest access: ${smb:-unset})."
exit 1
