#!/bin/bash
# Patchwell worklet linux-rotate-large-logs: evaluation.
# Checks that no log file under LOG_DIR matching FILE_PATTERN is larger than MAX_SIZE_MB
# (searched recursively, staying on LOG_DIR's filesystem). Catches logs that logrotate
# misses or that grow faster than its schedule. Changes nothing.
# Exit 0 = compliant, 1 = needs remediation, 2 = invalid parameters.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: where to look, which file names, and the largest size allowed in MiB.
LOG_DIR='/var/log'
FILE_PATTERN='*.log'
MAX_SIZE_MB='100'

if ! [[ "$MAX_SIZE_MB" =~ ^[0-9]+$ ]] || [ "$MAX_SIZE_MB" -lt 1 ]; then
  echo "MAX_SIZE_MB must be a whole number of MiB, at least 1."
  exit 2
fi
if [ ! -d "$LOG_DIR" ]; then
  echo "$LOG_DIR is not a directory."
  exit 2
fi

# -size +N with a unit rounds up, so compare in bytes: larger than N MiB exactly.
limit=$((MAX_SIZE_MB * 1024 * 1024))
mapfile -t large < <(find "$LOG_DIR" -xdev -type f -name "$FILE_PATTERN" -size +"${limit}"c 2>/dev/null)
if [ "${#large[@]}" -eq 0 ]; then
  echo "Compliant: no $FILE_PATTERN file under $LOG_DIR is larger than $MAX_SIZE_MB MiB."
  exit 0
fi
echo "${#large[@]} log file(s) larger than $MAX_SIZE_MB MiB under $LOG_DIR, e.g. ${large[0]}."
exit 1
