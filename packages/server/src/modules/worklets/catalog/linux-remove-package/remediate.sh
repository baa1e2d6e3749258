#!/bin/bash
# Patchwell worklet linux-remove-package: remediation.
# Removes the package named below with apt-get, dnf, yum or zypper, without prompting.
# The package manager's own safeguards stay on: APT refuses essential packages and
# nothing is removed with --force. Configuration files are kept (apt-get remove, not purge).
# Exit 0 = not installed afterwards, 1 = removal failed, 2 = no package name or manager.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export DEBIAN_FRONTEND=noninteractive

# Parameter: the package that must not be installed.
PACKAGE_NAME='telnet'

# A name starting with '-' would be read as an option.
if ! [[ "$PACKAGE_NAME" =~ ^[A-Za-z0-9][A-Za-z0-9.+_:~-]*$ ]]; then
  echo "The package name '$PACKAGE_NAME' is not a valid package name."
  exit 2
fi

is_installed() {
  if command -v dpkg-query >/dev/null 2>&1; then
    local status
    status=$(dpkg-query -W -f='${Status}' "$PACKAGE_NAME" 2>/dev/null </dev/null)
    case "${status##* }" in
      "" | not-installed | config-files) return 1 ;;
      *) return 0 ;;
    esac
  fi
  rpm -q --quiet "$PACKAGE_NAME" </dev/null 2>/dev/null
}

if ! is_installed; then
  echo "Nothing to do: $PACKAGE_NAME is not installed."
  exit 0
fi

if command -v apt-get >/dev/null 2>&1; then
  output=$(apt-get remove -y -q "$PACKAGE_NAME" </dev/null 2>&1)
elif command -v dnf >/dev/null 2>&1; then
  output=$(dnf remove -y -q "$PACKAGE_NAME" </dev/null 2>&1)
elif command -v yum >/dev/null 2>&1; then
  output=$(yum remove -y -q "$PACKAGE_NAME" </dev/null 2>&1)
elif command -v zypper >/dev/null 2>&1; then
  output=$(zypper --non-interactive remove "$PACKAGE_NAME" </dev/null 2>&1)
else
  echo "No supported package manager (apt-get, dnf, yum or zypper) was found."
  exit 2
fi

if is_installed; then
  echo "Failed: $PACKAGE_NAME is still installed: $(echo "$output" | tail -n 1)"
  exit 1
fi
echo "Remediated: $PACKAGE_NAME was removed."
exit 0
