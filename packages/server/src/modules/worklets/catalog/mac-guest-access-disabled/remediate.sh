#!/bin/bash
# Patchwell worklet mac-guest-access-disabled: remediation (macOS).
# Turns the guest user off ('sysadminctl -guestAccount off') and guest access to shared
# folders off ('sysadminctl -smbGuestAccess off'), with the preference keys as a fallback.
# Exit 0 = off, 1 = failed.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

sysadminctl -guestAccount off </dev/null >/dev/null 2>&1
sysadminctl -smbGuestAccess off </dev/null >/dev/null 2>&1
defaults write /Library/Preferences/com.apple.loginwindow GuestEnabled -bool false </dev/null >/dev/null 2>&1
defaults write /Library/Preferences/SystemConfiguration/com.apple.smb.server AllowGuestAccess -bool false </dev/null >/dev/null 2>&1

login=$(defaults read /Library/Preferences/com.apple.loginwindow GuestEnabled 2>/dev/null </dev/null)
smb=$(defaults read /Library/Preferences/SystemConfiguration/com.apple.smb.server AllowGuestAccess 2>/dev/null </dev/null)
if [ "$login" != "1" ] && [ "$smb" != "1" ]; then
  echo "Remediated: the guest account and guest file sharing are off."
  exit 0
fi
echo "Failed: guest access is still on (guest login: ${login:-unset}, SMB guest access: ${smb:-unset})."
exit 1
