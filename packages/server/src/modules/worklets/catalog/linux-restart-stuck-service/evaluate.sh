#!/bin/bash
# Patchwell worklet linux-restart-stuck-service: evaluation.
# Checks that the systemd unit SERVICE_NAME is active. A unit that failed, stopped, or has
# been starting or stopping for longer than STUCK_MINUTES needs remediation.
# Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = cannot be checked.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: the unit to keep running, and how long a start or stop may take.
SERVICE_NAME='cron.service'
STUCK_MINUTES='10'

if ! [[ "$SERVICE_NAME" =~ ^[A-Za-z0-9][A-Za-z0-9:_.@-]*$ ]] || ! [[ "$STUCK_MINUTES" =~ ^[0-9]+$ ]]; then
  echo "SERVICE_NAME must be a unit name and STUCK_MINUTES a whole number."
  exit 2
fi
if [ ! -d /run/systemd/system ]; then
  echo "systemd is not running on this device, so $SERVICE_NAME cannot be checked."
  exit 2
fi

declare -A prop
while IFS='=' read -r key value; do
  prop[$key]=$value
done < <(systemctl show "$SERVICE_NAME" -p LoadState -p ActiveState -p SubState -p StateChangeTimestampMonotonic </dev/null 2>/dev/null)

if [ "${prop[LoadState]}" != "loaded" ]; then
  echo "$SERVICE_NAME is not installed (load state ${prop[LoadState]:-unknown})."
  exit 2
fi
case "${prop[ActiveState]}" in
  active | reloading)
    echo "Compliant: $SERVICE_NAME is ${prop[ActiveState]} (${prop[SubState]})."
    exit 0
    ;;
  activating | deactivating)
    # Both clocks are in microseconds since boot.
    now=$(awk '{ printf "%d", $1 * 1000000 }' /proc/uptime)
    since=$(((now - ${prop[StateChangeTimestampMonotonic]:-0}) / 60000000))
    if [ "$since" -lt "$STUCK_MINUTES" ]; then
      echo "Compliant: $SERVICE_NAME is ${prop[ActiveState]} for $since minute(s), under $STUCK_MINUTES."
      exit 0
    fi
    echo "$SERVICE_NAME is stuck ${prop[ActiveState]} for $since minute(s)."
    exit 1
    ;;
  *)
    echo "$SERVICE_NAME is ${prop[ActiveState]:-unknown} (${prop[SubState]:-unknown})."
    exit 1
    ;;
esac
