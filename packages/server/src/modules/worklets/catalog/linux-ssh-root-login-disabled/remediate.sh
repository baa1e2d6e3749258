#!/bin/bash
# Patchwell worklet linux-ssh-root-login-disabled: remediation.
# Comments out every active PermitRootLogin line in /etc/ssh/sshd_config and
# /etc/ssh/sshd_config.d/*.conf, puts 'PermitRootLogin no' first in sshd_config (sshd
# takes the first value it reads), validates with 'sshd -t' and reloads sshd. A file that
# fails validation is restored from the backup taken before the change.
# Exit 0 = root login is off, 1 = failed.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

KEYWORD="PermitRootLogin"
VALUE="no"
MARKER="# Patchwell worklet linux-ssh-root-login-disabled"
MAIN=/etc/ssh/sshd_config

if ! command -v sshd >/dev/null 2>&1 || [ ! -f "$MAIN" ]; then
  echo "Nothing to do: the OpenSSH server is not installed."
  exit 0
fi

changed=()
for file in "$MAIN" /etc/ssh/sshd_config.d/*.conf; do
  [ -f "$file" ] || continue
  if grep -Eiq "^[[:space:]]*${KEYWORD}[[:space:]]" "$file" || grep -qxF "$MARKER" "$file"; then
    cp -p "$file" "$file.patchwell-bak"
    changed+=("$file")
    # Drop this worklet's earlier line, then disable any other one.
    sed -i -e "/^${MARKER}\$/{N;d}" -e "s/^[[:space:]]*${KEYWORD}[[:space:]]/# Disabled by Patchwell: &/I" "$file"
  fi
done
if [[ ! " ${changed[*]} " == *" $MAIN "* ]]; then
  cp -p "$MAIN" "$MAIN.patchwell-bak"
  changed+=("$MAIN")
fi
# Written through, not moved, so the file keeps its owner, mode and SELinux label.
{ printf '%s\n%s %s\n' "$MARKER" "$KEYWORD" "$VALUE"; cat "$MAIN"; } >"$MAIN.patchwell-new"
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

value=$(sshd -T 2>/dev/null </dev/null | awk '$1 == "permitrootlogin" { print $2 }')
if [ "$value" = "$VALUE" ]; then
  echo "Remediated: PermitRootLogin is no and sshd was reloaded."
  exit 0
fi
echo "Failed: the effective PermitRootLogin is still ${value:-unknown}."
exit 1
