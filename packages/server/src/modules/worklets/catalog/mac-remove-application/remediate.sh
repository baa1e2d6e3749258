#!/bin/bash
# Patchwell worklet mac-remove-application: remediation (macOS).
# Quits the processes running from APP_PATH and deletes the bundle. Only bundles in
# /Applications or a user's ~/Applications are accepted; Apple's own apps live in the
# read-only /System/Applications and cannot be named. Application support files and
# preferences in users' Libraries are left; the vendor's uninstaller removes those.
# Exit 0 = not installed afterwards, 1 = failed, 2 = invalid path.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: full path of the application bundle that must not be installed.
APP_PATH='/Applications/Example.app'

case "$APP_PATH" in
  */../* | */..)
    echo "APP_PATH must not contain '..'."
    exit 2
    ;;
  /Applications/*.app | /Users/*/Applications/*.app) ;;
  *)
    echo "APP_PATH must be an .app bundle in /Applications or a user's Applications folder."
    exit 2
    ;;
esac
if [ ! -e "$APP_PATH" ]; then
  echo "Nothing to do: $APP_PATH is not installed."
  exit 0
fi

for pid in $(pgrep -f "^$APP_PATH/Contents/"); do
  kill "$pid" 2>/dev/null
done
sleep 3
for pid in $(pgrep -f "^$APP_PATH/Contents/"); do
  kill -9 "$pid" 2>/dev/null
done

rm -rf -- "$APP_PATH"
if [ -e "$APP_PATH" ]; then
  echo "Failed: $APP_PATH could not be deleted (System Integrity Protection or an open file may hold it)."
  exit 1
fi
echo "Remediated: $APP_PATH was quit and deleted."
exit 0
