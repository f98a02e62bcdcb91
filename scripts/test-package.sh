#!/usr/bin/env bash
# The package test (scripts/test.sh calls it): builds the amd64 .deb,
# installs it with apt, plays the bundled demo clip with the service, then
# purges the package and checks that nothing is left but the boardcam
# system user (Debian policy keeps system users).
#
# Where systemd runs, the test restarts the real unit and waits for it to
# finish the clip. Where it does not (CI runs in a container), it runs the
# unit's ExecStart itself, with the unit's user, working directory,
# environment and umask, and a fake $NOTIFY_SOCKET that must receive
# READY=1 and STOPPING=1 (and WATCHDOG=1 on the unit's WatchdogSec when
# the run lasts long enough).
#
# It refuses to run where a boardcam package is installed already (it would
# replace it), except in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
say() { printf '\033[1m==> package test: %s\033[0m\n' "$*" >&2; }
fail() { echo "package test: $*" >&2; exit 1; }
t0=$SECONDS

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
systemd=0
[ -d /run/systemd/system ] && systemd=1

# The fake notification socket below is a few lines of Python.
if [ ! -x /usr/bin/python3 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends --no-remove python3 >/dev/null
fi

scripts/package.sh amd64
deb=$(ls dist/boardcam_*_amd64.deb)
unit=/lib/systemd/system/boardcam.service

user_existed=0
getent passwd boardcam >/dev/null && user_existed=1
if dpkg-query -W -f='${db:Status-Abbrev}' boardcam 2>/dev/null | grep -q '^[ir]'; then
  [ -n "${CI:-}" ] || fail "a boardcam package is installed here: the test would replace it (purge it first, or run the test in a container)"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get purge -y -qq boardcam >/dev/null
fi
tmp=$(mktemp -d)
chmod 0755 "$tmp"
purged=0
cleanup() {
  if [ "$purged" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get purge -y -qq boardcam >/dev/null 2>&1 || true
  fi
  if [ "$user_existed" = 0 ] && getent passwd boardcam >/dev/null; then
    $SUDO deluser --system --quiet boardcam >/dev/null 2>&1 || true
    getent group boardcam >/dev/null && $SUDO delgroup --system --quiet boardcam >/dev/null 2>&1 || true
  fi
  $SUDO rm -rf "$tmp"
}
trap cleanup EXIT

say "apt-get install ./$deb"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-remove "./$deb" >/dev/null
files=$(dpkg -L boardcam)

# What the package installed.
[ -x /usr/bin/boardcam ] || fail "no /usr/bin/boardcam"
[ -f "$unit" ] || fail "no $unit"
uid=$(id -u boardcam) || fail "no boardcam user"
[ "$uid" -lt 1000 ] || fail "boardcam is not a system user (uid $uid)"
[ "$(stat -c '%U:%G %a' /var/lib/boardcam)" = "boardcam:boardcam 750" ] || fail "/var/lib/boardcam: $(stat -c '%U:%G %a' /var/lib/boardcam)"
dpkg-query -W -f='${Conffiles}\n' boardcam | grep -q /etc/boardcam/boardcam.yaml || fail "the configuration is not a conffile"
[ -L /etc/systemd/system/multi-user.target.wants/boardcam.service ] || fail "the service is not enabled"
# Its Depends are the packages of the libraries the binary needs (besides
# the C and C++ runtimes), and OpenCV's videoio and imgcodecs are none of
# them.
core='^(libc6|libstdc\+\+6|libgcc-s1)$'
need=$(for so in $(readelf -d /usr/bin/boardcam | sed -n "s/.*(NEEDED).*\[\(.*\)\]/\1/p" | grep -Ev '^lib(c|m|gcc_s|stdc\+\+)\.so'); do
  ldd /usr/bin/boardcam | awk -v so="$so" '$1 == so {print $3}' | sed 's|^/lib/|/usr/lib/|' | xargs dpkg -S | cut -d: -f1
done | sort -u | grep -Ev "$core")
decl=$(dpkg-query -W -f='${Depends}\n' boardcam | tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -Ev "$core|^adduser$" | sort -u)
[ "$need" = "$decl" ] || fail "Depends lists $(echo $decl), the binary needs $(echo $need)"
if echo "$need" | grep -Eq 'libopencv-(videoio|imgcodecs)'; then fail "boardcam links OpenCV's videoio or imgcodecs: $(echo $need)"; fi
# The release build: the daemon and the club's commands, not the
# development tools (-tags notools: cmd/boardcam/tools_off.go).
cmds=$(/usr/bin/boardcam help 2>&1 | awk '/^commands:/ {c = 1; next} c && /^  [a-z]/ {print $1}' | tr '\n' ' ')
case " $cmds " in *" run "*" version "*) ;; *) fail "boardcam help lists $cmds: no run or version" ;; esac
case " $cmds " in *" eval "* | *" render "* | *" synth "* | *" simulate "*) fail "the package's boardcam has the development tools: $cmds" ;; esac

# The unit's command line, user, directory, environment and umask.
field() { sed -n "s/^$1=//p" "$unit" | tail -1; }
exec_start=$(field ExecStart)
[ "$(field User)" = boardcam ] || fail "the unit does not run as boardcam"
workdir=$(field WorkingDirectory)
umask_unit=$(field UMask)
envs=$(sed -n 's/^Environment=//p' "$unit")
wd=$(field WatchdogSec)
case "$wd" in *s) wd_usec=$(( ${wd%s} * 1000000 )) ;; *) fail "WatchdogSec=$wd: expected seconds" ;; esac
# The packaged configuration with the demo clip as the source, analysed as
# fast as the machine goes (no frame dropped), the web server on loopback.
conf=/etc/boardcam/boardcam.yaml
$SUDO cp "$conf" "$conf.orig"
$SUDO sed -i -e 's|^  uri: /dev/video0 .*|  uri: /usr/share/boardcam/demo.mp4|' \
  -e 's|^  pace: true .*|  pace: false|' -e 's|^  listen: ":8080" .*|  listen: "127.0.0.1:18431"|' "$conf"
grep -q 'uri: /usr/share/boardcam/demo.mp4' "$conf" || fail "could not point the configuration at the demo clip"
# The demo clip picks up a match in progress: start it from the demo's
# stroke log, explicitly (boardcam run continues the unfinished match), as
# the boardcam user the unit runs as.
setpriv --reuid=boardcam --regid=boardcam --init-groups /usr/bin/boardcam new-match --config "$conf" \
  --resume /usr/share/boardcam/demo.log > /dev/null || fail "boardcam new-match --resume /usr/share/boardcam/demo.log failed"

if [ "$systemd" = 1 ]; then
  say "systemctl restart boardcam (the demo clip)"
  since=$(date '+%Y-%m-%d %H:%M:%S')
  $SUDO systemctl restart boardcam
  for _ in $(seq 300); do
    systemctl is-active --quiet boardcam || break
    sleep 1
  done
  result=$(systemctl show boardcam -p Result --value)
  status=$(systemctl show boardcam -p ExecMainStatus --value)
  $SUDO journalctl -u boardcam --since "$since" --no-pager > "$tmp/log" || true
  tail -3 "$tmp/log" >&2
  [ "$result" = success ] && [ "$status" = 0 ] || fail "the unit ended with $result, status $status"
  grep -q 'end of the video' "$tmp/log" || fail "the demo was not played to its end"
  journal=$(ls -t /var/lib/boardcam/matches/match-*.log | head -1)
else
# A fake systemd notification socket, readable by the service user.
/usr/bin/python3 - "$tmp/notify" > "$tmp/notifications" <<'PY' &
import socket, sys, os
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777)
s.settimeout(300)
while True:
    m = s.recv(4096).decode()
    print(m.replace("\n", " | "), flush=True)
    if m.startswith("STOPPING=1"):
        break
PY
listener=$!
for _ in $(seq 50); do [ -S "$tmp/notify" ] && break; sleep 0.1; done

say "as boardcam: $exec_start"
set +e
(
  cd "$workdir"
  umask "$umask_unit"
  # shellcheck disable=SC2086
  env -i PATH=/usr/bin:/bin $envs NOTIFY_SOCKET="$tmp/notify" WATCHDOG_USEC="$wd_usec" \
    setpriv --reuid=boardcam --regid=boardcam --init-groups --no-new-privs --inh-caps=-all \
    $exec_start
) > "$tmp/out" 2> "$tmp/log"
rc=$?
set -e
wait "$listener" || true
tail -3 "$tmp/log" >&2
[ "$rc" = 0 ] || { cat "$tmp/log" >&2; fail "the service's command exited with $rc"; }
grep -q 'msg="end of the video"' "$tmp/log" || fail "the demo was not played to its end"
head -1 "$tmp/notifications" | grep -q '^READY=1' || fail "no READY=1: $(cat "$tmp/notifications")"
tail -1 "$tmp/notifications" | grep -q '^STOPPING=1' || fail "no STOPPING=1 at the end"
journal=$(ls /var/lib/boardcam/matches/match-*.log)
fi
[ "$(stat -c '%U %a' "$journal")" = "boardcam 640" ] || fail "$journal: $(stat -c '%U %a' "$journal") (the unit's UMask=0027)"
strokes=$(grep -E '^[NSEW] ' "$journal" | grep -c '"by":"auto"' || true)
[ "$strokes" -ge 5 ] || fail "$journal: $strokes strokes refereed from the video, want at least 5"
grep -q '"closed":"the video ended"' "$journal" || fail "$journal was not closed at the end of the video"
setpriv --reuid=boardcam --regid=boardcam --init-groups /usr/bin/boardcam score "$journal" > /dev/null || fail "boardcam score cannot replay $journal"
say "played the demo: $strokes strokes journaled in $journal, $(wc -l < "$tmp/notifications") notifications"
$SUDO mv "$conf.orig" "$conf"

say "apt-get purge boardcam"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get purge -y -qq boardcam >/dev/null
purged=1
left=""
for f in $files /etc/boardcam /var/lib/boardcam /etc/systemd/system/multi-user.target.wants/boardcam.service \
  /var/lib/systemd/deb-systemd-helper-enabled/boardcam.service /var/lib/systemd/deb-systemd-helper-masked/boardcam.service; do
  case "$f" in /. | /etc | /lib | /lib/systemd | /lib/systemd/system | /usr | /usr/bin | /usr/share | /usr/share/doc) continue ;; esac
  [ -e "$f" ] || [ -L "$f" ] && left="$left $f"
done
[ -z "$left" ] || fail "left after purge:$left"
dpkg-query -W -f='${Status}' boardcam 2>/dev/null | grep -q . && [ "$(dpkg-query -W -f='${db:Status-Abbrev}' boardcam)" != "un " ] &&
  fail "dpkg still knows boardcam: $(dpkg-query -W -f='${db:Status-Abbrev}' boardcam)"
getent passwd boardcam >/dev/null || fail "the boardcam user was removed (Debian policy keeps it)"
say "installed, ran and purged cleanly ($((SECONDS - t0)) s)"
