#!/bin/bash
# Patchwell worklet mac-remote-login-disabled: remediation (macOS).
# Turns Remote Login off with 'systemsetup -f -setremotelogin off'; when systemsetup is
# refused (it needs Full Disk Access on macOS 10.14 and later), disables and unloads the
# launchd job com.openssh.sshd directly, which is what systemsetup does.
# Incoming SSH connections stop working; sessions already open may be closed.
# Exit 0 = off, 1 = failed.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

systemsetup -f -setremotelogin off </dev/null >/dev/null 2>&1
if ! launchctl print-disabled system 2>/dev/null </dev/null | grep -Eq '"com\.openssh\.sshd" => (true|disabled)'; then
  launchctl disable system/com.openssh.sshd </dev/null >/dev/null 2>&1
fi
if launchctl print system/com.openssh.sshd </dev/null >/dev/null 2>&1; then
  launchctl bootout system/com.openssh.sshd </dev/null >/dev/null 2>&1
fi

if launchctl print-disabled system 2>/dev/null </dev/null | grep -Eq '"com\.openssh\.sshd" => (true|disabled)' &&
  ! launchctl print system/com.openssh.sshd </dev/null >/dev/null 2>&1; then
  echo "Remediated: Remote Login (SSH) is off."
  exit 0
fi
echo "Failed: Remote Login (SSH) is still on."
exit 1
