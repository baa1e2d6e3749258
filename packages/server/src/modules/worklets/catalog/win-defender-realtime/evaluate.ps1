<#
Patchwell worklet win-defender-realtime: evaluation.
Checks that Microsoft Defender Antivirus scans in real time (Get-MpComputerStatus:
AntivirusEnabled and RealTimeProtectionEnabled). When Defender runs in passive mode
because another antivirus is the registered primary, that antivirus protects the device
and the check passes, saying so.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = Defender unavailable.
#>
$check = {
    try {
        $status = Get-MpComputerStatus -ErrorAction Stop
    } catch {
        Write-Output "Microsoft Defender cannot be queried (removed or not installed): $($_.Exception.Message)"
        exit 2
    }
    if ([string]$status.AMRunningMode -eq 'Passive Mode') {
        Write-Output 'Compliant: Defender is in passive mode; another antivirus is the primary one.'
        exit 0
    }
    if ($status.AntivirusEnabled -and $status.RealTimeProtectionEnabled) {
        Write-Output "Compliant: Defender real-time protection is on (signatures $($status.AntivirusSignatureVersion))."
        exit 0
    }
    Write-Output "Defender real-time protection is off (antivirus $($status.AntivirusEnabled), real-time $($status.RealTimeProtectionEnabled), mode $($status.AMRunningMode))."
    exit 1
}

# The Defender module is 64-bit only; run the check in the 64-bit PowerShell.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
