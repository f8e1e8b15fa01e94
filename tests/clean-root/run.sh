#!/usr/bin/env bash
# Proves the README's two commands on a fresh, minimal Debian 12 machine: builds a minbase root
# with mmdebstrap (plus git and make, which a person needs to clone the repo and type `make`),
# bind-mounts the Swift toolchain at /opt/swift as the README expects it, clones this repository's
# HEAD into it with ../shared beside it, and runs `make demo` then `make test` inside, each timed.
# Everything runs in a private mount namespace, so nothing stays mounted when it ends.
#
#   CLEAN_ROOT=DIR        where the root is built (default /var/tmp/backdrop-clean-root; remade each run)
#   CLEAN_ROOT_STEPS="demo test"   which README commands to run (default both)
#
# Caches start empty, as on a new machine: a run builds both virtual-board kernels and the arm64
# sysroot from scratch, so it takes as long as a cold CI run. Not part of `make test`.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
root=${CLEAN_ROOT:-/var/tmp/backdrop-clean-root}
steps=${CLEAN_ROOT_STEPS:-demo test}
[ "$(id -u)" = 0 ] || { echo "clean-root: needs root (mmdebstrap --mode=root, chroot, mounts)" >&2; exit 2; }
[ -x /opt/swift/usr/bin/swift ] || { echo "clean-root: no Swift toolchain at /opt/swift to lend the root" >&2; exit 2; }
command -v mmdebstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
mirror=$(bash "$repo/scripts/debian-mirror.sh")
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
log() { echo "clean-root: $*" >&2; }

rm -rf "$root"
t0=$(date +%s)
log "building a minbase $codename root in $root"
mmdebstrap --quiet --mode=root --variant=minbase --include=git,make,ca-certificates \
    "$codename" "$root" "deb $mirror $codename main" "deb $mirror $codename-updates main"
log "root ready in $(( $(date +%s) - t0 )) s; $(chroot "$root" dpkg-query -W | wc -l) packages"
mkdir -p "$root/opt/swift" "$root/work/shared"
git clone --quiet "$repo" "$root/work/backdrop"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# The body runs in a private mount namespace: its binds vanish with it, whatever happens.
unshare --mount --propagation private bash -euo pipefail -s "$root" "$repo" "$steps" <<'INNER'
root=$1 repo=$2 steps=$3
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount -t tmpfs tmpfs "$root/tmp"
mount --bind -o ro /opt/swift "$root/opt/swift"
[ -d "$repo/../shared" ] && mount --bind -o ro "$repo/../shared" "$root/work/shared"
status=0
for step in $steps; do
    t=$(date +%s)
    if chroot "$root" env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin CI=true \
            bash -c "cd /work/backdrop && make $step" > "$root/../clean-root-$step.log" 2>&1; then
        echo "clean-root: make $step passed in $(( $(date +%s) - t )) s"
    else
        echo "clean-root: make $step FAILED after $(( $(date +%s) - t )) s; last lines of $root/../clean-root-$step.log:"
        tail -25 "$root/../clean-root-$step.log" | sed 's/^/    | /'
        status=1
        break
    fi
done
exit $status
INNER
