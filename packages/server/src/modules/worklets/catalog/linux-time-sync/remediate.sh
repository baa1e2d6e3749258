#!/bin/bash
# Patchwell worklet linux-time-sync: remediation.
# Turns network time synchronisation on with 'timedatectl set-ntp true'. When no NTP
# service is installed, installs systemd-timesyncd (Debian, Ubuntu) or chrony (RHEL,
# Fedora, SUSE) first. Exit 0 = on, 1 = failed, 2 = systemd is not running.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export DEBIAN_FRONTEND=noninteractive

if [ ! -d /run/systemd/system ] || ! command -v timedatectl >/dev/null 2>&1; then
  echo "systemd is not running on this device; start chronyd or ntpd with its init system."
  exit 2
fi

if timedatectl set-ntp true </dev/null >/dev/null 2>&1 && [ "$(timedatectl show -p NTP --value 2>/dev/null </dev/null)" = "yes" ]; then
  echo "Remediated: network time synchronisation is on."
  exit 0
fi

# set-ntp fails with "NTP not supported" when no NTP unit is installed.
if command -v apt-get >/dev/null 2>&1; then
  apt-get update -q </dev/null >/dev/null 2>&1
  apt-get install -y -q systemd-timesyncd </dev/null >/dev/null 2>&1
elif command -v dnf >/dev/null 2>&1; then
  dnf install -y -q chrony </dev/null >/dev/null 2>&1 && systemctl enable --now chronyd </dev/null >/dev/null 2>&1
elif command -v zypper >/dev/null 2>&1; then
  zypper --non-interactive install chrony </dev/null >/dev/null 2>&1 && systemctl enable --now chronyd </dev/null >/dev/null 2>&1
fi
timedatectl set-ntp true </dev/null >/dev/null 2>&1
if [ "$(timedatectl show -p NTP --value 2>/dev/null </dev/null)" = "yes" ]; then
  echo "Remediated: an NTP service was installed and network time synchronisation is on."
  exit 0
fi
echo "Failed: network time synchronisation is still off."
exit 1
