#!/bin/bash
# Patchwell worklet mac-firewall-enabled: remediation (macOS).
# Turns the application firewall on with socketfilterfw and, when STEALTH_MODE is 'on',
# stealth mode too (no answer to pings and probes of closed ports). Apps already allowed
# stay allowed; signed apps keep being allowed automatically.
# Exit 0 = on, 1 = failed (e.g. a configuration profile manages the firewall).
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Parameter: 'on' to turn stealth mode on as well, 'off' to leave it as it is.
STEALTH_MODE='on'

FW=/usr/libexec/ApplicationFirewall/socketfilterfw

"$FW" --setglobalstate on </dev/null >/dev/null 2>&1
extra=""
if [ "$STEALTH_MODE" = "on" ]; then
  "$FW" --setstealthmode on </dev/null >/dev/null 2>&1
  extra=" with stealth mode"
fi
state=$("$FW" --getglobalstate 2>/dev/null </dev/null)
if echo "$state" | grep -Eq 'State = [12]|enabled'; then
  echo "Remediated: the application firewall is on${extra}."
  exit 0
fi
echo "Failed: the firewall is still off; a configuration profile may manage it (${state:-no answer})."
exit 1
