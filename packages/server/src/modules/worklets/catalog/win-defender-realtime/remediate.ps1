<#
Patchwell worklet win-defender-realtime: remediation.
Removes local policy values that turn Defender or its real-time protection off
(DisableAntiSpyware, DisableRealtimeMonitoring under HKLM\SOFTWARE\Policies\Microsoft\Windows
Defender), starts the WinDefend service and turns real-time monitoring on with
Set-MpPreference. Tamper Protection or a domain Group Policy can block or undo this; the
output then says real-time protection is still off. Exit 0 = on, 1 = still off, 2 = Defender unavailable.
#>
$fix = {
    $policyRoot = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows Defender'
    foreach ($entry in @(@($policyRoot, 'DisableAntiSpyware'), @("$policyRoot\Real-Time Protection", 'DisableRealtimeMonitoring'))) {
        if ((Get-ItemProperty -Path $entry[0] -Name $entry[1] -ErrorAction SilentlyContinue).($entry[1]) -eq 1) {
            Remove-ItemProperty -Path $entry[0] -Name $entry[1] -ErrorAction SilentlyContinue
        }
    }
    Start-Service -Name WinDefend -ErrorAction SilentlyContinue
    try {
        Set-MpPreference -DisableRealtimeMonitoring $false -ErrorAction Stop
    } catch {
        Write-Output "Set-MpPreference failed: $($_.Exception.Message)"
    }
    Start-Sleep -Seconds 5
    try {
        $status = Get-MpComputerStatus -ErrorAction Stop
    } catch {
        Write-Output "Microsoft Defender cannot be queried (removed or not installed): $($_.Exception.Message)"
        exit 2
    }
    if ($status.AntivirusEnabled -and $status.RealTimeProtectionEnabled) {
        Write-Output 'Remediated: Defender real-time protection is on.'
        exit 0
    }
    Write-Output 'Failed: real-time protection is still off; Tamper Protection or a Group Policy may hold it.'
    exit 1
}

# The Defender module is 64-bit only, and HKLM\SOFTWARE is redirected for 32-bit processes.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
