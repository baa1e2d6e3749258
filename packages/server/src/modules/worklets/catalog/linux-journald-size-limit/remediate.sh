#!/bin/bash
# Patchwell worklet linux-journald-size-limit: remediation.
# Writes /etc/systemd/journald.conf.d/99-patchwell-size.conf with SystemMaxUse=MAX_USE
# (sorted last, so it wins over other drop-ins), restarts systemd-journald to apply it and
# vacuums archived journal files down to the cap.
# Exit 0 = capped, 1 = failed, 2 = no journald or invalid parameter.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: the largest journal size allowed, with a K, M or G suffix (powers of 1024).
MAX_USE='500M'

if ! [[ "$MAX_USE" =~ ^[0-9]+[KMGkmg]?$ ]]; then
  echo "MAX_USE must be a number with an optional K, M or G suffix, e.g. 500M."
  exit 2
fi
if ! command -v journalctl >/dev/null 2>&1; then
  echo "systemd-journald is not used on this device (no journalctl)."
  exit 2
fi

mkdir -p /etc/systemd/journald.conf.d
cat >/etc/systemd/journald.conf.d/99-patchwell-size.conf <<CONF
# Written by the Patchwell worklet linux-journald-size-limit.
[Journal]
SystemMaxUse=${MAX_USE^^}
CONF

if [ -d /run/systemd/system ]; then
  if ! systemctl restart systemd-journald </dev/null >/dev/null 2>&1; then
    echo "Failed: the cap was written but systemd-journald did not restart."
    exit 1
  fi
  journalctl --vacuum-size="${MAX_USE^^}" </dev/null >/dev/null 2>&1
  usage=$(journalctl --disk-usage 2>/dev/null </dev/null | grep -Eo '[0-9.]+[KMGT]?B?' | head -n 1)
  echo "Remediated: SystemMaxUse=${MAX_USE^^}; the journal now uses ${usage:-an unknown amount}."
  exit 0
fi
echo "Remediated: SystemMaxUse=${MAX_USE^^} is written; it applies when systemd-journald next starts."
exit 0
