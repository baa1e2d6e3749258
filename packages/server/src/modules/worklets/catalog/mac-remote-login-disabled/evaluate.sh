#!/bin/bash
# Patchwell worklet mac-remote-login-disabled: evaluation (macOS).
# Checks that Remote Login (the SSH server, launchd job com.openssh.sshd) is off: the job
# is marked disabled in launchd's system domain and is not loaded.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

# Older macOS prints '=> true' for a disabled job, newer prints '=> disabled'.
if launchctl print-disabled system 2>/dev/null </dev/null | grep -Eq '"com\.openssh\.sshd" => (true|disabled)'; then
  disabled=yes
else
  disabled=no
fi
if launchctl print system/com.openssh.sshd </dev/null >/dev/null 2>&1; then
  loaded=yes
else
  loaded=no
fi
if [ "$disabled" = "yes" ] && [ "$loaded" = "no" ]; then
  echo "Compliant: Remote Login (SSH) is off."
  exit 0
fi
echo "Remote Login (SSH) is on (disabled in launchd: $disabled, loaded: $loaded)."
exit 1
