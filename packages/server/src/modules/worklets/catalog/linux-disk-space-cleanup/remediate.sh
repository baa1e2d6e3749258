#!/bin/bash
# Patchwell worklet linux-disk-space-cleanup: remediation.
# Frees space with safe cleanups only: empties the package manager's download cache
# (apt-get clean, dnf/yum clean packages, zypper clean), vacuums systemd journal archives
# older than 14 days, and deletes files not accessed for 10 days in /tmp and 30 days in
# /var/tmp (systemd-tmpfiles' own ages) and compressed rotated logs in /var/log older than
# 30 days. Then measures MOUNT_POINT again.
# Exit 0 = at or under MAX_USED_PERCENT afterwards, 1 = still above, 2 = invalid parameters.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: a path on the filesystem to watch, and the highest use allowed in percent.
MOUNT_POINT='/'
MAX_USED_PERCENT='90'

used_percent() {
  df -P -- "$MOUNT_POINT" 2>/dev/null | awk 'NR == 2 { sub(/%/, "", $5); print $5 }'
}

if ! [[ "$MAX_USED_PERCENT" =~ ^[0-9]+$ ]] || [ "$MAX_USED_PERCENT" -gt 100 ]; then
  echo "MAX_USED_PERCENT must be a whole number from 0 to 100."
  exit 2
fi
before=$(used_percent)
if [ -z "$before" ]; then
  echo "$MOUNT_POINT does not exist or its filesystem cannot be read."
  exit 2
fi

if command -v apt-get >/dev/null 2>&1; then
  apt-get clean </dev/null >/dev/null 2>&1
elif command -v dnf >/dev/null 2>&1; then
  dnf clean packages </dev/null >/dev/null 2>&1
elif command -v yum >/dev/null 2>&1; then
  yum clean packages </dev/null >/dev/null 2>&1
elif command -v zypper >/dev/null 2>&1; then
  zypper --non-interactive clean </dev/null >/dev/null 2>&1
fi
if command -v journalctl >/dev/null 2>&1; then
  journalctl --vacuum-time=14d </dev/null >/dev/null 2>&1
fi
# -xdev keeps each search on its own filesystem; sockets and lock files are not regular files.
find /tmp -xdev -mindepth 1 -type f -atime +10 -delete 2>/dev/null
find /var/tmp -xdev -mindepth 1 -type f -atime +30 -delete 2>/dev/null
find /var/log -xdev -type f \( -name '*.gz' -o -name '*.xz' -o -name '*.bz2' \) -mtime +30 -delete 2>/dev/null

after=$(used_percent)
if [ "${after:-100}" -le "$MAX_USED_PERCENT" ]; then
  echo "Remediated: the filesystem of $MOUNT_POINT went from $before% to $after% full."
  exit 0
fi
echo "Failed: the filesystem of $MOUNT_POINT is still $after% full after cleanup (was $before%); it needs a person to look."
exit 1
