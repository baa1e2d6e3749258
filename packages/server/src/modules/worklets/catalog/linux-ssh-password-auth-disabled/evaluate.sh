#!/bin/bash
# Patchwell worklet linux-ssh-password-auth-disabled: evaluation.
# Checks the effective sshd settings ('sshd -T') turn off password logins:
# PasswordAuthentication no and KbdInteractiveAuthentication (ChallengeResponseAuthentication
# before OpenSSH 8.7) no, since PAM can take passwords through keyboard-interactive too.
# A device without the OpenSSH server is compliant.
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
password=$(echo "$config" | awk '$1 == "passwordauthentication" { print $2 }')
kbd=$(echo "$config" | awk '$1 == "kbdinteractiveauthentication" || $1 == "challengeresponseauthentication" { print $2; exit }')
if [ "$password" = "no" ] && [ "$kbd" = "no" ]; then
  echo "Compliant: SSH password and keyboard-interactive logins are off."
  exit 0
fi
echo "SSH accepts passwords (PasswordAuthentication ${password:-unset}, keyboard-interactive ${kbd:-unset})."
exit 1
