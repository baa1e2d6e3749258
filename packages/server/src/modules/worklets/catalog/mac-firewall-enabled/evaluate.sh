#!/bin/bash
# Patchwell worklet mac-firewall-enabled: evaluation (macOS).
# Checks that the macOS application firewall is on, as socketfilterfw reports it
# (state 1 = on, 2 = on and blocking all incoming connections).
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

FW=/usr/libexec/ApplicationFirewall/socketfilterfw

state=$("$FW" --getglobalstate 2>/dev/null </dev/null)
if echo "$state" | grep -Eq 'State = [12]|enabled'; then
  echo "Compliant: the application firewall is on."
  exit 0
fi
echo "The application firewall is off (${state:-no answer from socketfilterfw})."
exit 1
