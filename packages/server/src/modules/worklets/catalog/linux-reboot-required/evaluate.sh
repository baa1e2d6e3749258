#!/bin/bash
# Patchwell worklet linux-reboot-required: evaluation.
# Checks whether installed updates wait for a restart: the flag file
# /var/run/reboot-required on Debian and Ubuntu, 'needs-restarting -r' on RHEL and Fedora.
# Changes nothing. Exit 0 = no restart pending, 1 = a restart is pending.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if [ -f /var/run/reboot-required ]; then
  packages=""
  if [ -f /var/run/reboot-required.pkgs ]; then
    packages=$(sort -u /var/run/reboot-required.pkgs | head -n 5 | tr '\n' ' ')
  fi
  echo "A restart is pending to finish updates${packages:+ (}${packages% }${packages:+)}."
  exit 1
fi
if command -v needs-restarting >/dev/null 2>&1; then
  # Exit 1 means core libraries or the kernel were updated since boot.
  if ! needs-restarting -r </dev/null >/dev/null 2>&1; then
    echo "A restart is pending: needs-restarting reports updated core packages."
    exit 1
  fi
fi
echo "Compliant: no restart is pending."
exit 0
