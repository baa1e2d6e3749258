#!/bin/bash
# Patchwell worklet linux-disk-space-cleanup: evaluation.
# Checks that the filesystem holding MOUNT_POINT is no more than MAX_USED_PERCENT full
# (as df reports it, blocks reserved for root excluded). Changes nothing.
# Exit 0 = compliant, 1 = needs remediation, 2 = invalid parameters.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: a path on the filesystem to watch, and the highest use allowed in percent.
MOUNT_POINT='/'
MAX_USED_PERCENT='90'

if ! [[ "$MAX_USED_PERCENT" =~ ^[0-9]+$ ]] || [ "$MAX_USED_PERCENT" -gt 100 ]; then
  echo "MAX_USED_PERCENT must be a whole number from 0 to 100."
  exit 2
fi
if ! used=$(df -P -- "$MOUNT_POINT" 2>/dev/null | awk 'NR == 2 { sub(/%/, "", $5); print $5 }') || [ -z "$used" ]; then
  echo "$MOUNT_POINT does not exist or its filesystem cannot be read."
  exit 2
fi
if [ "$used" -le "$MAX_USED_PERCENT" ]; then
  echo "Compliant: the filesystem of $MOUNT_POINT is $used% full (at most $MAX_USED_PERCENT%)."
  exit 0
fi
echo "The filesystem of $MOUNT_POINT is $used% full, above $MAX_USED_PERCENT%."
exit 1
