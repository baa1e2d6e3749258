#!/bin/bash
# Patchwell worklet mac-screen-lock-idle-time: evaluation (macOS).
# Checks that the screen saver of the user signed in at the console starts after at most
# MAX_IDLE_SECONDS of inactivity (and is not set to never). A configuration profile's
# value (/Library/Managed Preferences) takes precedence over the user's own setting.
# Changes nothing. Exit 0 = compliant (or nobody signed in), 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: longest idle time allowed before the screen saver starts, in seconds.
MAX_IDLE_SECONDS='600'

user=$(stat -f '%Su' /dev/console 2>/dev/null)
if [ -z "$user" ] || [ "$user" = "root" ] || [ "$user" = "_mbsetupuser" ] || [ "$user" = "loginwindow" ]; then
  echo "Compliant: nobody is signed in at the console; checked again at the next scan."
  exit 0
fi
uid=$(id -u "$user")

source="configuration profile"
idle=$(defaults read "/Library/Managed Preferences/$user/com.apple.screensaver" idleTime 2>/dev/null </dev/null)
if [ -z "$idle" ]; then
  idle=$(defaults read "/Library/Managed Preferences/com.apple.screensaver" idleTime 2>/dev/null </dev/null)
fi
if [ -z "$idle" ]; then
  source="setting of $user"
  # Run as the user in their session so cfprefsd answers with the current value.
  idle=$(launchctl asuser "$uid" sudo -u "$user" defaults -currentHost read com.apple.screensaver idleTime 2>/dev/null </dev/null)
fi

if [ -z "$idle" ]; then
  echo "The screen saver idle time of $user is not set (the macOS default applies)."
  exit 1
fi
if [ "$idle" -gt 0 ] 2>/dev/null && [ "$idle" -le "$MAX_IDLE_SECONDS" ]; then
  echo "Compliant: the screen saver starts after $idle seconds ($source)."
  exit 0
fi
echo "The screen saver starts after ${idle} seconds ($source; 0 means never), more than $MAX_IDLE_SECONDS."
exit 1
