#!/bin/bash
# Patchwell worklet linux-ssh-root-login-disabled: evaluation.
# Checks the effective sshd setting PermitRootLogin (as 'sshd -T' resolves it, after
# includes) is 'no'. A device without the OpenSSH server is compliant.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = sshd cannot be queried.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

if ! command -v sshd >/dev/null 2>&1; then
  echo "Compliant: the OpenSSH server is not installed."
  exit 0
fi
if ! config=$(sshd -T 2>/dev/null </dev/null); then
  echo "Cannot read the effective sshd configuration ('sshd -T' failed)."
  exit 2
fi
value=$(echo "$config" | awk '$1 == "permitrootlogin" { print $2 }')
if [ "$value" = "no" ]; then
  echo "Compliant: PermitRootLogin is no."
  exit 0
fi
echo "Root can log in over SSH (PermitRootLogin ${value:-unset})."
exit 1
