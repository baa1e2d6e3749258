#!/bin/bash
# Patchwell worklet linux-restart-stuck-service: remediation.
# Gets the systemd unit SERVICE_NAME running again: clears a failed state, kills the unit's
# processes when it is stuck starting or stopping, then restarts it and waits up to
# WAIT_SECONDS for it to become active. A masked unit is left alone.
# Exit 0 = active, 1 = still not active, 2 = cannot be acted on.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: the unit to keep running, and how long to wait for it to come up.
SERVICE_NAME='cron.service'
WAIT_SECONDS='60'

if ! [[ "$SERVICE_NAME" =~ ^[A-Za-z0-9][A-Za-z0-9:_.@-]*$ ]] || ! [[ "$WAIT_SECONDS" =~ ^[0-9]+$ ]]; then
  echo "SERVICE_NAME must be a unit name and WAIT_SECONDS a whole number."
  exit 2
fi
if [ ! -d /run/systemd/system ]; then
  echo "systemd is not running on this device, so $SERVICE_NAME cannot be restarted."
  exit 2
fi

load=$(systemctl show "$SERVICE_NAME" -p LoadState --value </dev/null 2>/dev/null)
if [ "$load" != "loaded" ]; then
  echo "$SERVICE_NAME cannot be started (load state ${load:-unknown})."
  exit 2
fi

state=$(systemctl show "$SERVICE_NAME" -p ActiveState --value </dev/null 2>/dev/null)
if [ "$state" = "activating" ] || [ "$state" = "deactivating" ]; then
  systemctl kill --signal=SIGKILL "$SERVICE_NAME" </dev/null >/dev/null 2>&1
fi
systemctl reset-failed "$SERVICE_NAME" </dev/null >/dev/null 2>&1
# --no-block so a unit that hangs again cannot hold this script past its own timeout.
systemctl restart --no-block "$SERVICE_NAME" </dev/null >/dev/null 2>&1

for ((i = 0; i < WAIT_SECONDS; i++)); do
  if systemctl is-active --quiet "$SERVICE_NAME" </dev/null; then
    echo "Remediated: $SERVICE_NAME is active again."
    exit 0
  fi
  sleep 1
done
state=$(systemctl show "$SERVICE_NAME" -p ActiveState --value </dev/null 2>/dev/null)
echo "Failed: $SERVICE_NAME is ${state:-unknown} after $WAIT_SECONDS seconds."
exit 1
