#!/usr/bin/env bash
# Prints the Debian archive URI this machine's own apt configuration uses (no trailing slash), so no
# script of ours names a mirror's host. The security archive is skipped: it carries only updates.
# apt's own view (indextargets) is asked first; it is empty before the first `apt-get update`, so
# the source files are read as a fallback (one-line .list and deb822 .sources formats).
set -euo pipefail
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(TARGET_OF)' 2>/dev/null |
      awk -v c="$codename" '$2 == c && $3 == "deb" { print $1; exit }' || true)
if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
          awk -v c="$codename" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++;
                                              if ($(i+1) == c) { print $i; exit } }' || true)
fi
if [ -z "$uri" ]; then
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
          awk -v c="$codename" 'BEGIN { RS = ""; FS = "\n" }
               { u = ""; s = ""; t = ""
                 for (i = 1; i <= NF; i++) {
                   if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u); sub(/[ \t].*/, "", u) }
                   if ($i ~ /^Suites:/) s = " " substr($i, 8) " "
                   if ($i ~ /^Types:/) t = $i }
                 if (t ~ /deb( |$)/ && s ~ (" " c " ") && u != "") { print u; exit } }' || true)
fi
[ -n "$uri" ] || { echo "debian-mirror: no Debian $codename source in this machine's apt configuration" >&2; exit 1; }
echo "${uri%/}"
