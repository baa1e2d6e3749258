#!/bin/bash
# Patchwell worklet linux-automatic-updates: remediation.
# Debian and Ubuntu: installs unattended-upgrades and writes
# /etc/apt/apt.conf.d/99patchwell-auto-upgrades turning on the daily list update and
# unattended upgrade (the package's own origins pattern decides what is installed:
# security updates by default). RHEL and Fedora: installs dnf-automatic and enables
# dnf-automatic-install.timer. Exit 0 = on, 1 = failed, 2 = unsupported distribution.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export DEBIAN_FRONTEND=noninteractive

if command -v apt-get >/dev/null 2>&1; then
  if [ "$(dpkg-query -W -f='${Status}' unattended-upgrades 2>/dev/null </dev/null)" != "install ok installed" ]; then
    apt-get update -q </dev/null >/dev/null 2>&1
    if ! apt-get install -y -q unattended-upgrades </dev/null >/dev/null 2>&1; then
      echo "Failed: could not install unattended-upgrades."
      exit 1
    fi
  fi
  # Sorted last, so it wins over 20auto-upgrades and any earlier file that turns it off.
  cat > /etc/apt/apt.conf.d/99patchwell-auto-upgrades <<'CONF'
// Written by the Patchwell worklet linux-automatic-updates.
APT::Periodic::Update-Package-Lists "1";
APT::Periodic::Unattended-Upgrade "1";
CONF
  if [ -d /run/systemd/system ]; then
    systemctl enable --now apt-daily.timer apt-daily-upgrade.timer </dev/null >/dev/null 2>&1
  fi
  upgrade=$(apt-config dump APT::Periodic::Unattended-Upgrade </dev/null | sed -n 's/^APT::Periodic::Unattended-Upgrade "\(.*\)";$/\1/p')
  if [ "${upgrade:-0}" = "0" ]; then
    echo "Failed: APT still reports Unattended-Upgrade off."
    exit 1
  fi
  echo "Remediated: unattended-upgrades is installed and on."
  exit 0
fi

if command -v dnf >/dev/null 2>&1; then
  if ! rpm -q --quiet dnf-automatic </dev/null 2>/dev/null; then
    if ! dnf install -y -q dnf-automatic </dev/null >/dev/null 2>&1; then
      echo "Failed: could not install dnf-automatic."
      exit 1
    fi
  fi
  if ! systemctl enable --now dnf-automatic-install.timer </dev/null >/dev/null 2>&1; then
    echo "Failed: could not enable dnf-automatic-install.timer."
    exit 1
  fi
  echo "Remediated: dnf-automatic-install.timer is enabled."
  exit 0
fi

echo "Unsupported distribution: neither APT nor dnf is present."
exit 2
