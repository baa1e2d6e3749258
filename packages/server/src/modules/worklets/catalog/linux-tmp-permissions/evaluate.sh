#!/bin/bash
# Patchwell worklet linux-tmp-permissions: evaluation.
# Checks that the shared temporary directory TARGET_DIR is owned by root with mode 1777
# (everyone may write, the sticky bit stops users deleting each other's files).
# Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = not a directory.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: the shared temporary directory.
TARGET_DIR='/tmp'

if [ ! -d "$TARGET_DIR" ] || [ -L "$TARGET_DIR" ]; then
  echo "$TARGET_DIR is not a directory."
  exit 2
fi
read -r mode owner < <(stat -c '%a %u' -- "$TARGET_DIR")
if [ "$mode" = "1777" ] && [ "$owner" = "0" ]; then
  echo "Compliant: $TARGET_DIR has mode 1777 and is owned by root."
  exit 0
fi
echo "$TARGET_DIR has mode $mode and owner uid $owner; expected 1777 and root."
exit 1
