#!/bin/bash
# Patchwell worklet linux-ssh-password-auth-disabled: remediation.
# Refuses to act unless some account has a non-empty ~/.ssh/authorized_keys, so the change
# cannot lock every administrator out. Then comments out the active PasswordAuthentication
# and ChallengeResponseAuthentication/KbdInteractiveAuthentication lines in
# /etc/ssh/sshd_config and /etc/ssh/sshd_config.d/*.conf, puts both set to 'no' first in
# sshd_config (sshd takes the first value it reads), validates with 'sshd -t' (restoring the
# backups if it fails) and reloads sshd. Exit 0 = password logins are off, 1 = failed.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

MARKER="# Patchwell worklet linux-ssh-password-auth-disabled"
MAIN=/etc/ssh/sshd_config
# ChallengeResponseAuthentication is understood by every OpenSSH (an alias since 8.7).
LINES=("PasswordAuthentication no" "ChallengeResponseAuthentication no")
PATTERN="(PasswordAuthentication|ChallengeResponseAuthentication|KbdInteractiveAuthentication)"

if ! command -v sshd >/dev/null 2>&1 || [ ! -f "$MAIN" ]; then
  echo "Nothing to do: the OpenSSH server is not installed."
  exit 0
fi

has_keys=no
while IFS=: read -r _ _ _ _ _ home _; do
  if [ -n "$home" ] && [ -s "$home/.ssh/authorized_keys" ]; then
    has_keys=yes
    break
  fi
done </etc/passwd
if [ "$has_keys" = "no" ]; then
  echo "Refused: no account has an authorized_keys file; turning passwords off would lock everyone out."
  exit 1
fi

changed=()
for file in "$MAIN" /etc/ssh/sshd_config.d/*.conf; do
  [ -f "$file" ] || continue
  if grep -Eiq "^[[:space:]]*${PATTERN}[[:space:]]" "$file" || grep -qxF "$MARKER" "$file"; then
    cp -p "$file" "$file.patchwell-bak"
    changed+=("$file")
    # Drop this worklet's earlier block, then disable any other line.
    sed -i -E -e "/^${MARKER}\$/{N;N;d}" -e "s/^[[:space:]]*${PATTERN}[[:space:]]/# Disabled by Patchwell: &/I" "$file"
  fi
done
if [[ ! " ${changed[*]} " == *" $MAIN "* ]]; then
  cp -p "$MAIN" "$MAIN.patchwell-bak"
  changed+=("$MAIN")
fi
{ echo "$MARKER"; printf '%s\n' "${LINES[@]}"; cat "$MAIN"; } >"$MAIN.patchwell-new"
# Written through, not moved, so the file keeps its owner, mode and SELinux label.
cat "$MAIN.patchwell-new" >"$MAIN" && rm -f "$MAIN.patchwell-new"

if ! sshd -t </dev/null >/dev/null 2>&1; then
  for file in "${changed[@]}"; do mv -f "$file.patchwell-bak" "$file"; done
  echo "Failed: the changed configuration did not validate; the previous files were restored."
  exit 1
fi
for file in "${changed[@]}"; do rm -f "$file.patchwell-bak"; done

systemctl reload ssh </dev/null >/dev/null 2>&1 ||
  systemctl reload sshd </dev/null >/dev/null 2>&1 ||
  service ssh reload </dev/null >/dev/null 2>&1 ||
  service sshd reload </dev/null >/dev/null 2>&1

config=$(sshd -T 2>/dev/null </dev/null)
password=$(echo "$config" | awk '$1 == "passwordauthentication" { print $2 }')
kbd=$(echo "$config" | awk '$1 == "kbdinteractiveauthentication" || $1 == "challengeresponseauthentication" { print $2; exit }')
if [ "$password" = "no" ] && [ "$kbd" = "no" ]; then
  echo "Remediated: SSH password logins are off and sshd was reloaded."
  exit 0
fi
echo "Failed: sshd still reports PasswordAuthentication ${password:-unknown}, keyboard-interactive ${kbd:-unknown}."
exit 1
