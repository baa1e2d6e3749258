#!/bin/bash
# Patchwell worklet linux-reboot-required: remediation.
# Schedules a restart DELAY_MINUTES from now with 'shutdown -r', which warns signed-in
# users on their terminals; a restart already scheduled is left as it is. Runs only when
# the policy's schedule or 'Run now' calls it, so the schedule is the maintenance window.
# Exit 0 = restart scheduled (or not needed), 1 = could not schedule, 2 = invalid parameter.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: minutes between this run and the restart, so users can save their work.
DELAY_MINUTES='15'

if ! [[ "$DELAY_MINUTES" =~ ^[0-9]+$ ]]; then
  echo "DELAY_MINUTES must be a whole number."
  exit 2
fi

pending=no
if [ -f /var/run/reboot-required ]; then
  pending=yes
elif command -v needs-restarting >/dev/null 2>&1 && ! needs-restarting -r </dev/null >/dev/null 2>&1; then
  pending=yes
fi
if [ "$pending" = "no" ]; then
  echo "Nothing to do: no restart is pending."
  exit 0
fi
if [ -f /run/systemd/shutdown/scheduled ]; then
  echo "A restart is already scheduled; left as it is."
  exit 0
fi
if shutdown -r +"$DELAY_MINUTES" "Patchwell: this computer restarts in $DELAY_MINUTES minutes to finish installing updates." </dev/null >/dev/null 2>&1; then
  echo "Remediated: a restart is scheduled in $DELAY_MINUTES minute(s)."
  exit 0
fi
echo "Failed: the restart could not be scheduled."
exit 1
