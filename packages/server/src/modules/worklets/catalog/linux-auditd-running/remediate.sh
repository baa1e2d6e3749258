#!/bin/bash
# Patchwell worklet linux-auditd-running: remediation.
# Installs the audit daemon (package auditd with apt, audit with dnf, yum or zypper) when
# missing, then enables it at boot and starts it. Audit rules are not changed.
# Exit 0 = running, 1 = failed.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export DEBIAN_FRONTEND=noninteractive

if ! command -v auditd >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q </dev/null >/dev/null 2>&1
    apt-get install -y -q auditd </dev/null >/dev/null 2>&1
  elif command -v dnf >/dev/null 2>&1; then
    dnf install -y -q audit </dev/null >/dev/null 2>&1
  elif command -v yum >/dev/null 2>&1; then
    yum install -y -q audit </dev/null >/dev/null 2>&1
  elif command -v zypper >/dev/null 2>&1; then
    zypper --non-interactive install audit </dev/null >/dev/null 2>&1
  fi
  if ! command -v auditd >/dev/null 2>&1; then
    echo "Failed: auditd could not be installed."
    exit 1
  fi
fi

if [ -d /run/systemd/system ]; then
  systemctl enable auditd </dev/null >/dev/null 2>&1
  # RHEL's unit refuses manual stops, but a start is allowed.
  systemctl start auditd </dev/null >/dev/null 2>&1
else
  service auditd start </dev/null >/dev/null 2>&1
fi

for _ in 1 2 3 4 5; do
  if pgrep -x auditd >/dev/null 2>&1; then
    echo "Remediated: auditd is installed and running."
    exit 0
  fi
  sleep 1
done
echo "Failed: auditd did not start (containers without audit support cannot run it)."
exit 1
