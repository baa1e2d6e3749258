<#
Patchwell worklet win-screen-lock-timeout: remediation.
Sets "Interactive logon: Machine inactivity limit" to $MaxIdleSeconds (DWORD
InactivityTimeoutSecs under HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System),
so Windows locks any session idle that long. Windows reads it at startup: it takes effect
after the next restart. A domain Group Policy setting the same value overwrites it.
Exit 0 = set, 1 = failed, 2 = invalid parameter.
#>
# Parameter: longest inactivity before Windows locks the session, in seconds.
$MaxIdleSeconds = '900'

$fix = {
    param([string]$MaxIdleSeconds)
    $seconds = 0
    if (-not [int]::TryParse($MaxIdleSeconds, [ref]$seconds) -or $seconds -lt 1 -or $seconds -gt 599940) {
        Write-Output 'MaxIdleSeconds must be a whole number from 1 to 599940.'
        exit 2
    }
    $key = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System'
    try {
        New-ItemProperty -Path $key -Name InactivityTimeoutSecs -PropertyType DWord -Value $seconds -Force -ErrorAction Stop | Out-Null
    } catch {
        Write-Output "Failed: $($_.Exception.Message)"
        exit 1
    }
    Write-Output "Remediated: idle sessions lock after $seconds seconds from the next restart."
    exit 0
}

# HKLM\SOFTWARE is redirected for 32-bit processes; write the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $MaxIdleSeconds
    exit $LASTEXITCODE
}
& $fix $MaxIdleSeconds
