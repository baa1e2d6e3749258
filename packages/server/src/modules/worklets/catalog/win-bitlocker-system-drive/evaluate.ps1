<#
Patchwell worklet win-bitlocker-system-drive: evaluation.
Checks that BitLocker protects the system drive: Get-BitLockerVolume reports protection
On (encryption may still be in progress). A fully encrypted drive whose protection is
suspended needs remediation too.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = BitLocker unavailable.
#>
$check = {
    try {
        $volume = Get-BitLockerVolume -MountPoint $env:SystemDrive -ErrorAction Stop
    } catch {
        Write-Output "BitLocker is not available on this device (Windows edition or feature missing): $($_.Exception.Message)"
        exit 2
    }
    if ([string]$volume.ProtectionStatus -eq 'On') {
        Write-Output "Compliant: BitLocker protects $env:SystemDrive ($($volume.VolumeStatus), $($volume.EncryptionPercentage)% encrypted)."
        exit 0
    }
    Write-Output "BitLocker does not protect $env:SystemDrive (protection $($volume.ProtectionStatus), $($volume.VolumeStatus))."
    exit 1
}

# The agent may run a 32-bit PowerShell on 64-bit Windows, which has no BitLocker module;
# run the check in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
