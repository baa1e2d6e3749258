#!/bin/bash
# Patchwell worklet mac-gatekeeper-enabled: evaluation (macOS).
# Checks that Gatekeeper assesses apps before they open ('spctl --status' says
# "assessments enabled"). Changes nothing. Exit 0 = compliant, 1 = needs remediation.
export PATH="/usr/bin:/bin:/usr/sbin:/sbin"

status=$(spctl --status 2>&1 </dev/null)
if [ "$status" = "assessments enabled" ]; then
  echo "Compliant: Gatekeeper is on."
  exit 0
fi
echo "Gatekeeper is off (${status:-no answer from spctl})."
exit 1
