#!/bin/bash
# Patchwell worklet linux-journald-size-limit: evaluation.
# Checks that the systemd journal's disk use is capped: the effective SystemMaxUse (from
# journald.conf and its drop-ins, as 'systemd-analyze cat-config' merges them, last value
# wins) is set and no larger than MAX_USE. Without a cap journald may use up to 10% of the
# filesystem (at most 4 GiB). Changes nothing.
# Exit 0 = compliant, 1 = needs remediation, 2 = no journald or invalid parameter.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: the largest journal size allowed, with a K, M or G suffix (powers of 1024).
MAX_USE='500M'

to_bytes() {
  local v="${1^^}"
  case "$v" in
    *[0-9]K) echo $((${v%K} * 1024)) ;;
    *[0-9]M) echo $((${v%M} * 1024 * 1024)) ;;
    *[0-9]G) echo $((${v%G} * 1024 * 1024 * 1024)) ;;
    *[0-9]T) echo $((${v%T} * 1024 * 1024 * 1024 * 1024)) ;;
    *) echo $((v)) ;;
  esac
}

if ! [[ "$MAX_USE" =~ ^[0-9]+[KMGkmg]?$ ]]; then
  echo "MAX_USE must be a number with an optional K, M or G suffix, e.g. 500M."
  exit 2
fi
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "systemd-journald is not used on this device (no systemd-analyze)."
  exit 2
fi

value=$(systemd-analyze cat-config systemd/journald.conf 2>/dev/null </dev/null |
  awk '/^\[/ { journal = ($0 == "[Journal]") } journal && /^[[:space:]]*SystemMaxUse[[:space:]]*=/ { sub(/^[^=]*=[[:space:]]*/, ""); last = $0 } END { print last }')
if [ -z "$value" ]; then
  echo "The journal size is not capped (SystemMaxUse is not set)."
  exit 1
fi
if ! [[ "$value" =~ ^[0-9]+[KMGTkmgt]?$ ]]; then
  echo "SystemMaxUse has a value this worklet does not understand: $value."
  exit 1
fi
if [ "$(to_bytes "$value")" -le "$(to_bytes "$MAX_USE")" ]; then
  echo "Compliant: SystemMaxUse is $value (at most $MAX_USE)."
  exit 0
fi
echo "SystemMaxUse is $value, above $MAX_USE."
exit 1
