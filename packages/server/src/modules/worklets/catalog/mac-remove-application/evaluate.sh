#!/bin/bash
# Patchwell worklet mac-remove-application: evaluation (macOS).
# Checks that the application bundle APP_PATH is not installed.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = invalid path.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: full path of the application bundle that must not be installed.
APP_PATH='/Applications/Example.app'

case "$APP_PATH" in
  /Applications/*.app | /Users/*/Applications/*.app) ;;
  *)
    echo "APP_PATH must be an .app bundle in /Applications or a user's Applications folder."
    exit 2
    ;;
esac
if [ -e "$APP_PATH" ]; then
  version=$(defaults read "$APP_PATH/Contents/Info" CFBundleShortVersionString 2>/dev/null </dev/null)
  echo "$APP_PATH is installed${version:+ (version $version)}."
  exit 1
fi
echo "Compliant: $APP_PATH is not installed."
exit 0
