#!/usr/bin/env bash
# Sets up Mosquitto for a club's boards: TLS with the club's own CA, a
# password for each board, the tournament view and Home Assistant, and an
# ACL that lets each board write only its own topics. Run it as root on the
# machine that will be the broker (deploy/mqtt/README.md). Safe to run
# again: the CA, the certificate and existing passwords are kept; new
# boards get new passwords.
#
#   deploy/mqtt/setup-broker.sh --club myclub --boards 4 --host broker.club.lan
#
# Options: --dir DIR (default /etc/mosquitto), --port N (TLS, 8883),
# --bind ADDRESS (the TLS listener's address; default every interface),
# --no-install (no apt-get, no restart: the tests use it).
set -euo pipefail

club=myclub boards=4 host=$(hostname -f 2>/dev/null || hostname) dir=/etc/mosquitto port=8883 bind="" install=1
while [ $# -gt 0 ]; do
  case "$1" in
    --club) club=$2; shift 2 ;;
    --boards) boards=$2; shift 2 ;;
    --host) host=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --bind) bind=$2; shift 2 ;;
    --no-install) install=0; shift ;;
    *) echo "setup-broker: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$club" in *[!a-zA-Z0-9_-]*|"") echo "setup-broker: --club: letters, digits, _ and - only" >&2; exit 2 ;; esac
case "$boards" in *[!0-9]*|"") echo "setup-broker: --boards: a number" >&2; exit 2 ;; esac

if [ "$install" = 1 ]; then
  missing=()
  for p in mosquitto openssl; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

b="$dir/boardcam"
mkdir -p "$b/credentials" "$dir/conf.d"
umask 077
chmod 700 "$b/credentials"

# The club's CA and the broker's certificate (ten years; kept when present).
if [ ! -f "$b/ca.crt" ]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
    -subj "/CN=boardcam $club CA" -keyout "$b/ca.key" -out "$b/ca.crt" 2>/dev/null
fi
if [ ! -f "$b/server.crt" ]; then
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$host" \
    -keyout "$b/server.key" -out "$b/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' "$host" > "$b/server.ext"
  openssl x509 -req -in "$b/server.csr" -CA "$b/ca.crt" -CAkey "$b/ca.key" -CAcreateserial \
    -days 3650 -extfile "$b/server.ext" -out "$b/server.crt" 2>/dev/null
  rm -f "$b/server.csr" "$b/server.ext"
fi
chmod 644 "$b/ca.crt"

# A password per user: the boards, the tournament view, Home Assistant.
touch "$b/passwd"
users=(tournament homeassistant)
for i in $(seq 1 "$boards"); do users+=("board$i"); done
for u in "${users[@]}"; do
  if [ ! -f "$b/credentials/$u" ]; then
    openssl rand -hex 16 > "$b/credentials/$u"
    mosquitto_passwd -b "$b/passwd" "$u" "$(cat "$b/credentials/$u")"
  fi
done

# Each board writes only under boardcam/<club>/<its user name>/ and its
# Home Assistant discovery; the tournament view reads everything and
# writes only commands; Home Assistant reads.
cat > "$b/acl" <<ACL
# boardcam (deploy/mqtt/setup-broker.sh): club $club
pattern readwrite boardcam/$club/%u/#
pattern readwrite homeassistant/+/boardcam_${club}_%u/#

user tournament
topic read boardcam/#
topic write boardcam/$club/+/command

user homeassistant
topic read boardcam/#
topic readwrite homeassistant/#
ACL

cat > "$dir/conf.d/boardcam.conf" <<CONF
# boardcam (deploy/mqtt/setup-broker.sh): TLS on port $port, passwords, ACL.
per_listener_settings false
allow_anonymous false
password_file $b/passwd
acl_file $b/acl
listener $port $bind
cafile $b/ca.crt
certfile $b/server.crt
keyfile $b/server.key
# Keep what waits for a subscriber with a persistent session across a
# restart of the broker, saved every 10 s (docs/mqtt.md).
persistence true
autosave_interval 10
max_queued_messages 10000
CONF

if id mosquitto >/dev/null 2>&1; then
  chown -R mosquitto: "$b"
  chown root: "$b/ca.key" "$b/credentials" "$b/credentials/"* 2>/dev/null || true
fi
chmod 755 "$b"

if [ "$install" = 1 ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  systemctl restart mosquitto
fi

cat <<SUMMARY
Mosquitto for club $club: mqtts://$host:$port
  CA certificate (copy to every board and the tournament machine): $b/ca.crt
  passwords (one file per user, copy each to its machine):          $b/credentials/
  boards: board1 … board$boards, prefix boardcam/$club/boardN/
SUMMARY
