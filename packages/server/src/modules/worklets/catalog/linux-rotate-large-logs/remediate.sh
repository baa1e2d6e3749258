#!/bin/bash
# Patchwell worklet linux-rotate-large-logs: remediation.
# Rotates each log file under LOG_DIR matching FILE_PATTERN that is larger than MAX_SIZE_MB:
# compresses a copy to <file>.<timestamp>.gz next to it, then truncates the file in place,
# so the program writing it keeps its open handle (logrotate's copytruncate; lines written
# during the copy may be lost). Archives this worklet made more than KEEP_DAYS days ago
# are deleted. Exit 0 = no oversized file remains, 1 = some could not be rotated, 2 = invalid parameters.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameters: where to look, which file names, the largest size allowed in MiB, and
# how many days to keep the compressed archives.
LOG_DIR='/var/log'
FILE_PATTERN='*.log'
MAX_SIZE_MB='100'
KEEP_DAYS='30'

if ! [[ "$MAX_SIZE_MB" =~ ^[0-9]+$ ]] || [ "$MAX_SIZE_MB" -lt 1 ] || ! [[ "$KEEP_DAYS" =~ ^[0-9]+$ ]]; then
  echo "MAX_SIZE_MB (at least 1) and KEEP_DAYS must be whole numbers."
  exit 2
fi
if [ ! -d "$LOG_DIR" ]; then
  echo "$LOG_DIR is not a directory."
  exit 2
fi

limit=$((MAX_SIZE_MB * 1024 * 1024))
stamp=$(date +%Y%m%d%H%M%S)
rotated=0
failed=0
while IFS= read -r -d '' file; do
  archive="$file.$stamp.gz"
  if gzip -c -- "$file" >"$archive" && : >"$file"; then
    rotated=$((rotated + 1))
  else
    rm -f -- "$archive"
    failed=$((failed + 1))
  fi
done < <(find "$LOG_DIR" -xdev -type f -name "$FILE_PATTERN" -size +"${limit}"c -print0 2>/dev/null)

# Only archives named the way this worklet names them: <pattern-match>.<14 digits>.gz.
pruned=$(find "$LOG_DIR" -xdev -type f -name "$FILE_PATTERN.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9].gz" -mtime +"$KEEP_DAYS" -print -delete 2>/dev/null | wc -l)

if [ "$failed" -gt 0 ]; then
  echo "Failed: $failed file(s) could not be rotated; $rotated rotated."
  exit 1
fi
echo "Remediated: $rotated log file(s) rotated and compressed, $pruned old archive(s) deleted."
exit 0
