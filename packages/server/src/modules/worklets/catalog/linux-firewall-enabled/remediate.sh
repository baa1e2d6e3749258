#!/bin/bash
# Patchwell worklet linux-firewall-enabled: remediation.
# Installs ufw (apt) or firewalld (dnf, yum, zypper) when neither is present, allows the
# ports sshd listens on so remote administration survives, then enables the firewall at
# boot and now. Existing rules are kept.
# Exit 0 = the firewall is active, 1 = it could not be enabled.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
export DEBIAN_FRONTEND=noninteractive

# The agent feeds this script to bash on stdin; every child gets /dev/null so none eats it.
install_package() {
  if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q </dev/null >/dev/null 2>&1
    apt-get install -y -q "$1" </dev/null >/dev/null 2>&1
  elif command -v dnf >/dev/null 2>&1; then
    dnf install -y -q "$2" </dev/null >/dev/null 2>&1
  elif command -v yum >/dev/null 2>&1; then
    yum install -y -q "$2" </dev/null >/dev/null 2>&1
  elif command -v zypper >/dev/null 2>&1; then
    zypper --non-interactive install "$2" </dev/null >/dev/null 2>&1
  else
    return 1
  fi
}

ssh_ports() {
  local ports=""
  if command -v sshd >/dev/null 2>&1; then
    ports=$(sshd -T 2>/dev/null </dev/null | awk '$1 == "port" { print $2 }' | sort -u)
  fi
  echo "${ports:-22}"
}

if ! command -v ufw >/dev/null 2>&1 && ! command -v firewall-cmd >/dev/null 2>&1; then
  if ! install_package ufw firewalld; then
    echo "Failed: no firewall is installed and none could be installed."
    exit 1
  fi
fi

if command -v ufw >/dev/null 2>&1; then
  for port in $(ssh_ports); do
    ufw allow "${port}/tcp" </dev/null >/dev/null 2>&1
  done
  if ! ufw --force enable </dev/null >/dev/null 2>&1; then
    echo "Failed: 'ufw enable' did not succeed."
    exit 1
  fi
  if ufw status </dev/null 2>/dev/null | head -n 1 | grep -q '^Status: active'; then
    echo "Remediated: ufw is active; SSH port(s) $(ssh_ports | tr '\n' ' ')allowed."
    exit 0
  fi
  echo "Failed: ufw is still not active."
  exit 1
fi

systemctl unmask firewalld </dev/null >/dev/null 2>&1
if ! systemctl enable --now firewalld </dev/null >/dev/null 2>&1; then
  echo "Failed: could not start firewalld."
  exit 1
fi
for port in $(ssh_ports); do
  firewall-cmd --permanent --add-port="${port}/tcp" </dev/null >/dev/null 2>&1
done
firewall-cmd --reload </dev/null >/dev/null 2>&1
if [ "$(firewall-cmd --state 2>&1 </dev/null)" = "running" ]; then
  echo "Remediated: firewalld is running; SSH port(s) $(ssh_ports | tr '\n' ' ')allowed."
  exit 0
fi
echo "Failed: firewalld is still not running."
exit 1
