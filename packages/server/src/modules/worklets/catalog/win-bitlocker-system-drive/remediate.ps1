<#
Patchwell worklet win-bitlocker-system-drive: remediation.
Resumes protection when the drive is encrypted but suspended. Otherwise turns BitLocker on
for the system drive only when the TPM is present and ready: adds a recovery password,
backs it up to Active Directory or Microsoft Entra ID when the device is joined, then
enables XTS-AES 256 encryption of used space with the TPM as protector. With
$RequireKeyBackup = 'true' nothing is encrypted unless the recovery password was backed up.
Exit 0 = protected or encrypting, 1 = not enabled (reason printed), 2 = BitLocker unavailable.
#>
# Parameter: 'true' to refuse encryption unless the recovery password reached AD or Entra ID.
$RequireKeyBackup = 'true'

$fix = {
    param([string]$RequireKeyBackup)
    $drive = $env:SystemDrive
    try {
        $volume = Get-BitLockerVolume -MountPoint $drive -ErrorAction Stop
    } catch {
        Write-Output "BitLocker is not available on this device: $($_.Exception.Message)"
        exit 2
    }
    if ([string]$volume.ProtectionStatus -eq 'On') {
        Write-Output "Nothing to do: BitLocker already protects $drive."
        exit 0
    }
    if ([string]$volume.VolumeStatus -ne 'FullyDecrypted') {
        Resume-BitLocker -MountPoint $drive -ErrorAction SilentlyContinue | Out-Null
        $volume = Get-BitLockerVolume -MountPoint $drive
        if ([string]$volume.ProtectionStatus -eq 'On') {
            Write-Output "Remediated: BitLocker protection on $drive was resumed."
            exit 0
        }
        Write-Output "Failed: $drive is $($volume.VolumeStatus) but protection could not be resumed."
        exit 1
    }

    $tpm = Get-Tpm -ErrorAction SilentlyContinue
    if (-not ($tpm -and $tpm.TpmPresent -and $tpm.TpmReady)) {
        Write-Output 'Not enabled: the TPM is missing or not ready; initialise it in the firmware first.'
        exit 1
    }

    $recovery = @($volume.KeyProtector | Where-Object { [string]$_.KeyProtectorType -eq 'RecoveryPassword' }) | Select-Object -First 1
    if (-not $recovery) {
        Add-BitLockerKeyProtector -MountPoint $drive -RecoveryPasswordProtector -WarningAction SilentlyContinue -ErrorAction Stop | Out-Null
        $recovery = @((Get-BitLockerVolume -MountPoint $drive).KeyProtector | Where-Object { [string]$_.KeyProtectorType -eq 'RecoveryPassword' }) | Select-Object -First 1
    }

    $backedUpTo = $null
    $computer = Get-CimInstance -ClassName Win32_ComputerSystem
    if ($computer.PartOfDomain) {
        try {
            Backup-BitLockerKeyProtector -MountPoint $drive -KeyProtectorId $recovery.KeyProtectorId -ErrorAction Stop | Out-Null
            $backedUpTo = 'Active Directory'
        } catch {
            $backedUpTo = $null
        }
    }
    if (-not $backedUpTo -and (Get-Command -Name BackupToAAD-BitLockerKeyProtector -ErrorAction SilentlyContinue)) {
        try {
            BackupToAAD-BitLockerKeyProtector -MountPoint $drive -KeyProtectorId $recovery.KeyProtectorId -ErrorAction Stop | Out-Null
            $backedUpTo = 'Microsoft Entra ID'
        } catch {
            $backedUpTo = $null
        }
    }
    if (-not $backedUpTo -and $RequireKeyBackup -eq 'true') {
        Write-Output "Not enabled: the recovery password (protector $($recovery.KeyProtectorId)) could not be backed up to Active Directory or Entra ID."
        exit 1
    }

    try {
        Enable-BitLocker -MountPoint $drive -EncryptionMethod XtsAes256 -UsedSpaceOnly -TpmProtector -SkipHardwareTest -WarningAction SilentlyContinue -ErrorAction Stop | Out-Null
    } catch {
        Write-Output "Failed: Enable-BitLocker: $($_.Exception.Message)"
        exit 1
    }
    $where = if ($backedUpTo) { "backed up to $backedUpTo" } else { 'kept on the device only (read it with manage-bde -protectors -get)' }
    Write-Output "Remediated: BitLocker is encrypting $drive with the TPM; recovery password $($recovery.KeyProtectorId) $where."
    exit 0
}

# The agent may run a 32-bit PowerShell on 64-bit Windows, which has no BitLocker module;
# run the fix in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $RequireKeyBackup
    exit $LASTEXITCODE
}
& $fix $RequireKeyBackup
