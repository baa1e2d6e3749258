/**
 * Built-in name lists for the simulated fleet. Real product and package names, so the
 * console's software view looks like a real zone's; versions are generated.
 */

export const LINUX_PACKAGES =
  `adduser apt apt-utils base-files base-passwd bash bash-completion bind9-dnsutils bind9-host
bsdutils bzip2 ca-certificates coreutils cpio cron curl dash dbus debconf debianutils diffutils dirmngr dmidecode
dmsetup dpkg e2fsprogs ethtool fdisk file findutils gawk gcc-12-base gettext-base gnupg gpg gpg-agent grep groff-base
grub-common grub-pc gzip hostname htop ifupdown init init-system-helpers iproute2 iptables iputils-ping isc-dhcp-client
jq kmod less locales login logrotate lsb-release lsof man-db mawk media-types mount nano ncurses-base ncurses-bin
netbase netcat-openbsd nftables openssh-client openssh-server openssh-sftp-server openssl passwd patch perl perl-base
perl-modules-5.36 pinentry-curses procps psmisc python3 python3-apt python3-certifi python3-chardet python3-debian
python3-idna python3-minimal python3-pkg-resources python3-requests python3-six python3-urllib3 python3-yaml
python3.11 python3.11-minimal readline-common rsync rsyslog sed sensible-utils shared-mime-info strace sudo
systemd systemd-sysv systemd-timesyncd sysvinit-utils tar tcpdump telnet time traceroute tzdata ucf udev unattended-upgrades
unzip usrmerge util-linux vim vim-common vim-runtime vim-tiny wget whiptail xauth xdg-user-dirs xz-utils zip zstd
nginx nginx-common apache2 apache2-bin apache2-data apache2-utils postgresql-15 postgresql-client-15 postgresql-common
mariadb-server mariadb-client redis-server redis-tools docker-ce docker-ce-cli containerd.io docker-compose-plugin
git git-man make gcc g++ cpp binutils build-essential dpkg-dev fakeroot pkg-config autoconf automake libtool cmake
nodejs npm openjdk-17-jre-headless default-jre-headless ca-certificates-java chrony ntpsec-ntpdate fail2ban ufw auditd
apparmor apparmor-utils snapd cloud-init cloud-guest-utils qemu-guest-agent open-vm-tools linux-base firmware-linux-free
linux-image-amd64 linux-headers-amd64 intel-microcode amd64-microcode bc dc ed mtr-tiny net-tools nfs-common
rpcbind smartmontools sysstat tmux screen zsh fish bat ripgrep fzf tree ncdu iotop iftop nload dstat`
    .split(/\s+/)
    .filter(Boolean);

/** Library stems; each becomes lib<stem> and, on some machines, lib<stem>-dev. */
export const LINUX_LIB_STEMS =
  `ssl3 curl4 xml2 png16-16 jpeg62-turbo z1 bz2-1.0 lzma5 zstd1 ffi8 gcrypt20 gnutls30 krb5-3
k5crypto3 gssapi-krb5-2 ldap-2.5-0 pam0g pam-modules sqlite3-0 systemd0 udev1 cap2 acl1 attr1 selinux1 seccomp2 uuid1
blkid1 mount1 smartcols1 ncursesw6 tinfo6 readline8 pcre2-8-0 glib2.0-0 dbus-1-3 expat1 yaml-0-2 icu72 idn2-0 nghttp2-14
ssh2-1 brotli1 tiff6 webp7 gif7 freetype6 fontconfig1 harfbuzz0b cairo2 pango-1.0-0 gdk-pixbuf-2.0-0 x11-6 xext6
xrender1 xcb1 drm2 gbm1 gl1 egl1 vulkan1 pulse0 asound2 avcodec59 avformat59 swscale6 opus0 vorbis0a ogg0 flac12
python3.11 perl5.36 lua5.4-0 tcl8.6 boost-system1.74.0 protobuf32 re2-9 snappy1v5 leveldb1d lz4-1 archive13 magic1
gpgme11 assuan0 ksba8 npth0 tasn1-6 p11-kit0 hogweed6 nettle8 gmp10 mpfr6 mpc3 isl23 stdc++6 gcc-s1 atomic1 gomp1
quadmath0 c6 crypt1 nsl2 tirpc3 keyutils1 sasl2-2 sasl2-modules-db db5.3 gdbm6 elf1 dw1 bpf1 mnl0 nftnl11
netfilter-conntrack3 nfnetlink0 iptc0 ip4tc2 ip6tc2 xtables12 kmod2 cryptsetup12 devmapper1.02.1 argon2-1 json-c5
jansson4 event-2.1-7 unistring2 psl5 rtmp1 brotlidec1 zstd-dev`
    .split(/\s+/)
    .filter(Boolean);

export const WINDOWS_APPS =
  `Google Chrome|Google LLC;Mozilla Firefox (x64 en-US)|Mozilla;Microsoft Edge|Microsoft Corporation;
Microsoft Edge WebView2 Runtime|Microsoft Corporation;Microsoft 365 Apps for enterprise - en-us|Microsoft Corporation;
Microsoft Teams|Microsoft Corporation;Microsoft OneDrive|Microsoft Corporation;Microsoft Update Health Tools|Microsoft Corporation;
Microsoft Visual Studio Code|Microsoft Corporation;Microsoft PowerToys|Microsoft Corporation;PowerShell 7-x64|Microsoft Corporation;
Windows PC Health Check|Microsoft Corporation;Microsoft Intune Management Extension|Microsoft Corporation;
Adobe Acrobat Reader DC|Adobe;Adobe Acrobat (64-bit)|Adobe;Zoom Workplace (64-bit)|Zoom;Slack (Machine - MSI)|Slack Technologies Inc.;
7-Zip 24.08 (x64)|Igor Pavlov;Notepad++ (64-bit x64)|Notepad++ Team;VLC media player|VideoLAN;Git|The Git Development Community;
Python 3.12.7 (64-bit)|Python Software Foundation;Python Launcher|Python Software Foundation;Node.js|Node.js Foundation;
Java 8 Update 431 (64-bit)|Oracle Corporation;Eclipse Temurin JDK with Hotspot 17.0.13+11 (x64)|Eclipse Adoptium;
PuTTY release 0.81 (64-bit)|Simon Tatham;WinSCP 6.3.5|Martin Prikryl;FileZilla 3.67.1|Tim Kosse;KeePass Password Safe 2.57|Dominik Reichl;
Bitwarden|Bitwarden Inc.;1Password|AgileBits Inc.;Cisco Secure Client - AnyConnect VPN|Cisco Systems, Inc.;
GlobalProtect|Palo Alto Networks;FortiClient VPN|Fortinet Technologies Inc;CrowdStrike Windows Sensor|CrowdStrike, Inc.;
Sophos Endpoint Agent|Sophos Limited;SentinelOne Agent|SentinelOne;Dell Command | Update|Dell Inc.;Dell SupportAssist|Dell Inc.;
HP Support Assistant|HP Inc.;Lenovo Vantage Service|Lenovo Group Ltd.;Lenovo System Update|Lenovo;Intel(R) Graphics Driver|Intel Corporation;
Intel(R) Wireless Bluetooth(R)|Intel Corporation;Intel(R) PROSet/Wireless Software|Intel Corporation;
Intel(R) Management Engine Components|Intel Corporation;Intel(R) Chipset Device Software|Intel Corporation;
Realtek High Definition Audio Driver|Realtek Semiconductor Corp.;Realtek Card Reader|Realtek Semiconductor Corp.;
NVIDIA Graphics Driver 566.14|NVIDIA Corporation;NVIDIA HD Audio Driver 1.4.0.1|NVIDIA Corporation;NVIDIA PhysX System Software|NVIDIA Corporation;
AMD Software|Advanced Micro Devices, Inc.;Synaptics Pointing Device Driver|Synaptics Incorporated;Logitech Options+|Logitech;
Dropbox|Dropbox, Inc.;Box|Box, Inc.;Google Drive|Google LLC;WinRAR 7.01 (64-bit)|win.rar GmbH;Greenshot 1.2.10.6|Greenshot;
ShareX|ShareX Team;Paint.NET|dotPDN LLC;GIMP 2.10.38|The GIMP Team;LibreOffice 24.8.2.1|The Document Foundation;
Spotify|Spotify AB;Webex|Cisco Systems, Inc;TeamViewer|TeamViewer;AnyDesk|AnyDesk Software GmbH;Wireshark 4.4.1 x64|The Wireshark developer community;
Npcap|Nmap Project;Docker Desktop|Docker Inc.;Microsoft SQL Server Management Studio - 20.2|Microsoft Corporation;
Microsoft ODBC Driver 18 for SQL Server|Microsoft Corporation;Microsoft OLE DB Driver for SQL Server|Microsoft Corporation;
Citrix Workspace 2409|Citrix Systems, Inc.;VMware Tools|VMware, Inc.;Veeam Agent for Microsoft Windows|Veeam Software Group GmbH;
Windows Driver Package - Intel (e1dexpress) Net|Intel;Microsoft Windows Desktop Runtime - 8.0.10 (x64)|Microsoft Corporation;
Microsoft ASP.NET Core 8.0.10 - Shared Framework (x64)|Microsoft Corporation;Microsoft .NET Runtime - 8.0.10 (x64)|Microsoft Corporation;
Microsoft .NET Runtime - 6.0.35 (x64)|Microsoft Corporation;Microsoft Windows Desktop Runtime - 6.0.35 (x64)|Microsoft Corporation;
Microsoft GameInput|Microsoft Corporation;Teams Machine-Wide Installer|Microsoft Corporation;Office 16 Click-to-Run Extensibility Component|Microsoft Corporation;
Office 16 Click-to-Run Licensing Component|Microsoft Corporation;Office 16 Click-to-Run Localization Component|Microsoft Corporation`
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => {
      const bar = e.lastIndexOf('|');
      return { name: e.slice(0, bar).trim(), publisher: e.slice(bar + 1).trim() };
    });

/** Redistributables, SDK parts and drivers that fill a real Windows machine's uninstall keys. */
export const WINDOWS_COMPONENT_STEMS = [
  'Microsoft Visual C++ 2005 Redistributable',
  'Microsoft Visual C++ 2008 Redistributable - 9.0.30729',
  'Microsoft Visual C++ 2010 Redistributable - 10.0.40219',
  'Microsoft Visual C++ 2012 Redistributable - 11.0.61030',
  'Microsoft Visual C++ 2013 Redistributable - 12.0.40664',
  'Microsoft Visual C++ 2015-2022 Redistributable - 14.40.33816',
  'Microsoft Visual C++ 2022 Additional Runtime - 14.40.33816',
  'Microsoft Visual C++ 2022 Minimum Runtime - 14.40.33816',
  'Windows SDK AddOn',
  'Windows Software Development Kit - Windows 10.0.22621.3233',
  'Windows SDK Desktop Headers',
  'Windows SDK Desktop Libs',
  'Windows SDK Signing Tools for Desktop Apps',
  'Windows App Certification Kit Native Components',
  'Universal CRT Headers Libraries and Sources',
  'vs_CoreEditorFonts',
  'vs_communitysharedmsi',
  'vs_minshellsharedmsi',
  'vs_filehandler',
  'Microsoft Windows Desktop Targeting Pack',
  'Microsoft .NET Host FX Resolver',
  'Microsoft .NET Host',
  'Microsoft .NET Toolset',
  'Microsoft .NET Standard Targeting Pack',
  'Microsoft ASP.NET Core Targeting Pack',
  'Microsoft Windows Desktop Runtime',
  'Microsoft Web Deploy',
  'IIS Express Application Compatibility Database',
  'Microsoft System CLR Types for SQL Server',
  'SQL Server Browser for SQL Server',
  'Microsoft VSS Writer for SQL Server',
  'Intel(R) Serial IO',
  'Intel(R) Rapid Storage Technology',
  'Intel(R) Dynamic Platform and Thermal Framework',
  'Intel(R) Optane Pipeline',
  'Realtek Ethernet Controller Driver',
  'Thunderbolt(TM) Software',
  'Windows Driver Package - Dell Inc. System',
  'Windows Driver Package - Lenovo Firmware',
  'Windows Driver Package - Intel Bluetooth',
];

export const MAC_APPS =
  `Safari Mail Calendar Contacts Notes Reminders Maps Photos Messages FaceTime Music Podcasts TV News Stocks Home
Books Preview TextEdit QuickTime_Player Calculator Chess Dictionary Font_Book Image_Capture Launchpad Mission_Control
Photo_Booth Stickies System_Settings Time_Machine Automator Shortcuts Freeform Weather Clock Passwords iPhone_Mirroring
Activity_Monitor AirPort_Utility Audio_MIDI_Setup Bluetooth_File_Exchange Boot_Camp_Assistant ColorSync_Utility Console
Digital_Color_Meter Disk_Utility Grapher Keychain_Access Migration_Assistant Screenshot Script_Editor System_Information
Terminal VoiceOver_Utility Xcode Simulator Instruments FileMerge Keynote Numbers Pages GarageBand iMovie
Google_Chrome Firefox Microsoft_Edge Microsoft_Word Microsoft_Excel Microsoft_PowerPoint Microsoft_Outlook Microsoft_OneNote
Microsoft_Teams OneDrive Company_Portal Slack zoom.us Webex Spotify Visual_Studio_Code iTerm Docker Postman 1Password_7
1Password Bitwarden Dropbox Google_Drive Box_Drive Figma Sketch Adobe_Acrobat_Reader Adobe_Photoshop_2025 Adobe_Illustrator_2025
Adobe_Creative_Cloud Affinity_Designer_2 Affinity_Photo_2 Notion Obsidian Raycast Alfred_5 Rectangle Magnet The_Unarchiver
VLC Audacity HandBrake OBS Discord WhatsApp Telegram Signal Cisco_Secure_Client GlobalProtect FortiClient
CrowdStrike_Falcon Jamf_Connect Self_Service Tunnelblick Wireshark TablePlus DBeaver Sequel_Ace Android_Studio
IntelliJ_IDEA PyCharm WebStorm GoLand DataGrip Sublime_Text BBEdit Nova Tower Fork GitHub_Desktop Sourcetree
Cyberduck Transmit Parallels_Desktop VMware_Fusion UTM Logi_Options+ DisplayLink_Manager Karabiner-Elements`
    .split(/\s+/)
    .filter(Boolean)
    .map((n) => n.replace(/_/g, ' '));

export const MAC_PKG_RECEIPTS = `com.microsoft.package.Microsoft_Word.app com.microsoft.package.Microsoft_Excel.app
com.microsoft.package.Microsoft_PowerPoint.app com.microsoft.package.Microsoft_Outlook.app com.microsoft.package.Microsoft_OneNote.app
com.microsoft.package.Microsoft_AutoUpdate.app com.microsoft.package.Frameworks com.microsoft.package.Proofing_Tools
com.microsoft.package.DFonts com.microsoft.pkg.licensing com.microsoft.OneDrive com.microsoft.teams2 com.microsoft.edgemac
com.microsoft.CompanyPortalMac com.microsoft.wdav com.microsoft.dlp.daemon com.microsoft.dlp.agent com.google.Chrome
org.mozilla.firefox us.zoom.pkg.videomeeting com.cisco.pkg.anyconnect.vpn com.cisco.pkg.anyconnect.dart
com.crowdstrike.falcon.sensor com.jamf.connect com.jamfsoftware.selfservice com.paloaltonetworks.globalprotect.pkg
com.docker.docker com.adobe.acrobat.DC.reader.app.pkg.MUI com.adobe.acrobat.DC.reader.appsupport.pkg.MUI
com.adobe.armdc.app.pkg com.oracle.jdk-17 net.temurin.17.jdk org.python.Python.PythonFramework-3.12
org.python.Python.PythonApplications-3.12 org.python.Python.PythonUnixTools-3.12 org.nodejs.node.pkg
com.github.GitHub-Desktop com.displaylink.displaylinkmanagerapp com.logi.optionsplus com.vmware.fusion
com.parallels.desktop.pkg com.tunnelblick.pkg com.wireshark.ChmodBPF.pkg com.wireshark.path_helper.pkg
org.virtualbox.pkg.virtualbox org.virtualbox.pkg.virtualboxcli com.1password.1password com.bitwarden.desktop
com.dropbox.DropboxMacUpdate com.google.drivefs.arm64 com.google.drivefs.x86_64 com.box.desktop.installer.desktop`
  .split(/\s+/)
  .filter(Boolean);

/** Vendors' names for app updates (third-party patching). */
export const THIRD_PARTY_UPDATABLE = [
  'Google Chrome',
  'Mozilla Firefox (x64 en-US)',
  'Firefox',
  'Zoom Workplace (64-bit)',
  'zoom.us',
  'Slack (Machine - MSI)',
  'Slack',
  'Microsoft Visual Studio Code',
  'Visual Studio Code',
  'Adobe Acrobat Reader DC',
  'Adobe Acrobat Reader',
  '7-Zip 24.08 (x64)',
  'Notepad++ (64-bit x64)',
  'VLC media player',
  'VLC',
  'Git',
  'Node.js',
  'Docker Desktop',
  'Docker',
  'Wireshark 4.4.1 x64',
  'Wireshark',
  'Webex',
  'Microsoft Teams',
  'Spotify',
  'KeePass Password Safe 2.57',
  'WinSCP 6.3.5',
  'PuTTY release 0.81 (64-bit)',
  'Java 8 Update 431 (64-bit)',
];
