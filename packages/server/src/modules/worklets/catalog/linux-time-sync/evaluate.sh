#!/bin/bash
# Patchwell worklet linux-time-sync: evaluation.
# Checks that network time synchronisation is on: 'timedatectl' reports NTP=yes (an NTP
# service such as systemd-timesyncd or chronyd is enabled), or, without timedated, chronyd
# or ntpd is running. Whether the clock is synchronised yet is reported, not required.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if [ -d /run/systemd/system ] && command -v timedatectl >/dev/null 2>&1; then
  ntp=$(timedatectl show -p NTP --value 2>/dev/null </dev/null)
  synced=$(timedatectl show -p NTPSynchronized --value 2>/dev/null </dev/null)
  if [ "$ntp" = "yes" ]; then
    echo "Compliant: network time synchronisation is on (synchronised: ${synced:-unknown})."
    exit 0
  fi
  if [ -n "$ntp" ]; then
    echo "Network time synchronisation is off (timedatectl NTP=$ntp)."
    exit 1
  fi
fi

for daemon in chronyd ntpd openntpd; do
  if pgrep -x "$daemon" >/dev/null 2>&1; then
    echo "Compliant: $daemon is running."
    exit 0
  fi
done
echo "No network time service is enabled or running."
exit 1
