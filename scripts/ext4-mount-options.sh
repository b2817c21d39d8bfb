#!/usr/bin/env bash
# Checks what Linux says about the ext4 mount options knowledge/storage.toml's
# note "ext4-data-mode" names (source "checked-ext4"): journal_async_commit
# with the default data=ordered and with data=writeback, changing the data
# mode on a remount, and commit=N on a remount. Needs root and a loop device;
# works on a scratch image in a temporary directory and removes it.
# Usage: sudo scripts/ext4-mount-options.sh
set -euo pipefail
work=$(mktemp -d)
image=$work/ext4.img
mnt=$work/mnt
mkdir "$mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
truncate -s 64M "$image"
mkfs.ext4 -q -F "$image"
echo "kernel $(uname -r)"

# One mount attempt: the options, whether it was accepted, the kernel's last
# ext4 line when there is one to read.
try() {
  local what=$1
  shift
  if mount "$@" 2>/dev/null; then echo "accepted: $what"; else echo "refused:  $what"; fi
  dmesg 2>/dev/null | grep -i 'ext4' | tail -1 | sed 's/^/          kernel: /' || true
}
try "mount -o journal_async_commit (default data=ordered)" -o loop,journal_async_commit "$image" "$mnt"
umount "$mnt" 2>/dev/null || true
try "mount -o data=writeback,journal_async_commit" -o loop,data=writeback,journal_async_commit "$image" "$mnt"
umount "$mnt" 2>/dev/null || true
mount -o loop "$image" "$mnt"
try "mount -o remount,data=writeback (mounted with data=ordered)" -o remount,data=writeback "$mnt"
try "mount -o remount,commit=60" -o remount,commit=60 "$mnt"
grep " $mnt " /proc/mounts | sed 's/^/mounted: /'
