#!/bin/bash
# Patchwell worklet mac-gatekeeper-enabled: remediation (macOS).
# Turns Gatekeeper's assessments back on ('spctl --global-enable', or '--master-enable'
# on macOS before 15). Apps the user already allowed keep their exceptions.
# Exit 0 = on, 1 = failed.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

spctl --global-enable </dev/null >/dev/null 2>&1 || spctl --master-enable </dev/null >/dev/null 2>&1
status=$(spctl --status 2>&1 </dev/null)
if [ "$status" = "assessments enabled" ]; then
  echo "Remediated: Gatekeeper is on."
  exit 0
fi
echo "Failed: Gatekeeper is still off (${status:-no answer})."
exit 1
