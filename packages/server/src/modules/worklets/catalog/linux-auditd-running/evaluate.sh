#!/bin/bash
# Patchwell worklet linux-auditd-running: evaluation.
# Checks that the Linux audit daemon is installed and running, so security-relevant
# events (logins, privilege use, audit rules) are recorded.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if ! command -v auditd >/dev/null 2>&1; then
  echo "The audit daemon (auditd) is not installed."
  exit 1
fi
if pgrep -x auditd >/dev/null 2>&1; then
  echo "Compliant: auditd is running."
  exit 0
fi
echo "auditd is installed but not running."
exit 1
