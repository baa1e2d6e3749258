#!/bin/bash
# Patchwell worklet mac-screen-lock-idle-time: remediation (macOS).
# Sets the screen saver idle time of the user signed in at the console to
# MAX_IDLE_SECONDS (defaults -currentHost com.apple.screensaver idleTime, written as that
# user). It does not change how soon a password is asked after the screen saver starts:
# macOS allows that only with the user's password (sysadminctl -screenLock) or through a
# configuration profile. A value set by a profile cannot be overridden here.
# Exit 0 = set (or nobody signed in), 1 = failed, 2 = invalid parameter.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: longest idle time allowed before the screen saver starts, in seconds.
MAX_IDLE_SECONDS='600'

if ! [[ "$MAX_IDLE_SECONDS" =~ ^[0-9]+$ ]] || [ "$MAX_IDLE_SECONDS" -lt 60 ]; then
  echo "MAX_IDLE_SECONDS must be a whole number of seconds, at least 60."
  exit 2
fi
user=$(stat -f '%Su' /dev/console 2>/dev/null)
if [ -z "$user" ] || [ "$user" = "root" ] || [ "$user" = "_mbsetupuser" ] || [ "$user" = "loginwindow" ]; then
  echo "Nothing to do: nobody is signed in at the console."
  exit 0
fi
uid=$(id -u "$user")

launchctl asuser "$uid" sudo -u "$user" defaults -currentHost write com.apple.screensaver idleTime -int "$MAX_IDLE_SECONDS" </dev/null >/dev/null 2>&1
idle=$(launchctl asuser "$uid" sudo -u "$user" defaults -currentHost read com.apple.screensaver idleTime 2>/dev/null </dev/null)
if [ "$idle" = "$MAX_IDLE_SECONDS" ]; then
  echo "Remediated: the screen saver of $user starts after $MAX_IDLE_SECONDS seconds."
  exit 0
fi
echo "Failed: the idle time of $user reads ${idle:-nothing} after writing $MAX_IDLE_SECONDS."
exit 1
