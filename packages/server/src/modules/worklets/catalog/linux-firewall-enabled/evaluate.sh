#!/bin/bash
# Patchwell worklet linux-firewall-enabled: evaluation.
# Checks that a host firewall is active: ufw (Debian, Ubuntu) or firewalld (RHEL, Fedora, SUSE).
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if command -v ufw >/dev/null 2>&1; then
  if ufw status 2>/dev/null </dev/null | head -n 1 | grep -q '^Status: active'; then
    echo "Compliant: ufw is active."
    exit 0
  fi
  echo "ufw is installed but not active."
  exit 1
fi

if command -v firewall-cmd >/dev/null 2>&1; then
  state=$(firewall-cmd --state 2>&1 </dev/null)
  if [ "$state" = "running" ]; then
    echo "Compliant: firewalld is running."
    exit 0
  fi
  echo "firewalld is installed but not running (${state:-no answer})."
  exit 1
fi

echo "No host firewall is installed (neither ufw nor firewalld)."
exit 1
