#!/bin/bash
# Patchwell worklet linux-remove-package: evaluation.
# Checks that the package named below is not installed (dpkg on Debian and Ubuntu, rpm on
# RHEL, Fedora and SUSE). A Debian package removed with its configuration left behind
# counts as not installed. Changes nothing.
# Exit 0 = compliant, 1 = needs remediation, 2 = no package name or no package manager.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: the package that must not be installed.
PACKAGE_NAME='telnet'

# A name starting with '-' would be read as an option.
if ! [[ "$PACKAGE_NAME" =~ ^[A-Za-z0-9][A-Za-z0-9.+_:~-]*$ ]]; then
  echo "The package name '$PACKAGE_NAME' is not a valid package name."
  exit 2
fi

if command -v dpkg-query >/dev/null 2>&1; then
  status=$(dpkg-query -W -f='${Status}' "$PACKAGE_NAME" 2>/dev/null </dev/null)
  case "${status##* }" in
    "" | not-installed | config-files)
      echo "Compliant: $PACKAGE_NAME is not installed."
      exit 0
      ;;
    *)
      echo "$PACKAGE_NAME is installed (dpkg status: $status)."
      exit 1
      ;;
  esac
fi

if command -v rpm >/dev/null 2>&1; then
  if version=$(rpm -q "$PACKAGE_NAME" 2>/dev/null </dev/null); then
    echo "$PACKAGE_NAME is installed ($version)."
    exit 1
  fi
  echo "Compliant: $PACKAGE_NAME is not installed."
  exit 0
fi

echo "No supported package manager (dpkg or rpm) was found."
exit 2
