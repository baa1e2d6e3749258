#!/bin/bash
# Patchwell worklet linux-tmp-permissions: remediation.
# Sets TARGET_DIR's owner to root:root and its mode to 1777. Only the directory itself
# changes, never its contents. Exit 0 = corrected, 1 = failed, 2 = not a directory.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# Parameter: the shared temporary directory.
TARGET_DIR='/tmp'

# A symlink would redirect chmod to another directory.
if [ ! -d "$TARGET_DIR" ] || [ -L "$TARGET_DIR" ]; then
  echo "$TARGET_DIR is not a directory."
  exit 2
fi
if chown root:root -- "$TARGET_DIR" && chmod 1777 -- "$TARGET_DIR"; then
  echo "Remediated: $TARGET_DIR now has mode 1777 and is owned by root."
  exit 0
fi
echo "Failed: could not change $TARGET_DIR."
exit 1
