#!/bin/bash
# Patchwell worklet linux-automatic-updates: evaluation.
# Checks that security updates install automatically: on Debian and Ubuntu the
# unattended-upgrades package is installed and APT's periodic list update and
# unattended upgrade are on; on RHEL and Fedora the dnf-automatic install timer is enabled.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = unsupported distribution.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if command -v apt-config >/dev/null 2>&1; then
  status=$(dpkg-query -W -f='${Status}' unattended-upgrades 2>/dev/null </dev/null)
  if [ "$status" != "install ok installed" ]; then
    echo "unattended-upgrades is not installed."
    exit 1
  fi
  # apt-config merges every file of /etc/apt/apt.conf.d, so the value is the effective one.
  lists=$(apt-config dump APT::Periodic::Update-Package-Lists </dev/null | sed -n 's/^APT::Periodic::Update-Package-Lists "\(.*\)";$/\1/p')
  upgrade=$(apt-config dump APT::Periodic::Unattended-Upgrade </dev/null | sed -n 's/^APT::Periodic::Unattended-Upgrade "\(.*\)";$/\1/p')
  if [ "${lists:-0}" = "0" ] || [ "${upgrade:-0}" = "0" ]; then
    echo "unattended-upgrades is installed but off (Update-Package-Lists=${lists:-unset}, Unattended-Upgrade=${upgrade:-unset})."
    exit 1
  fi
  echo "Compliant: unattended-upgrades is on (every ${upgrade} day(s))."
  exit 0
fi

if command -v dnf >/dev/null 2>&1; then
  if ! rpm -q --quiet dnf-automatic </dev/null 2>/dev/null; then
    echo "dnf-automatic is not installed."
    exit 1
  fi
  if [ "$(systemctl is-enabled dnf-automatic-install.timer 2>/dev/null </dev/null)" = "enabled" ]; then
    echo "Compliant: dnf-automatic-install.timer is enabled."
    exit 0
  fi
  echo "dnf-automatic is installed but dnf-automatic-install.timer is not enabled."
  exit 1
fi

echo "Unsupported distribution: neither APT nor dnf is present."
exit 2
