<#
Patchwell worklet win-screen-lock-timeout: evaluation.
Checks the policy "Interactive logon: Machine inactivity limit" (registry value
InactivityTimeoutSecs under HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System):
it must lock an idle session after at most $MaxIdleSeconds, and not be 0 (never).
Changes nothing. Exit 0 = compliant, 1 = needs remediation.
#>
# Parameter: longest inactivity before Windows locks the session, in seconds.
$MaxIdleSeconds = '900'

$check = {
    param([string]$MaxIdleSeconds)
    $key = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System'
    $value = (Get-ItemProperty -Path $key -Name InactivityTimeoutSecs -ErrorAction SilentlyContinue).InactivityTimeoutSecs
    if ($null -eq $value) {
        Write-Output 'The machine inactivity limit is not set; idle sessions are not locked by policy.'
        exit 1
    }
    if ($value -gt 0 -and $value -le [int]$MaxIdleSeconds) {
        Write-Output "Compliant: idle sessions lock after $value seconds."
        exit 0
    }
    Write-Output "The machine inactivity limit is $value seconds (0 means never), above $MaxIdleSeconds."
    exit 1
}

# HKLM\SOFTWARE is redirected for 32-bit processes; read the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check -args $MaxIdleSeconds
    exit $LASTEXITCODE
}
& $check $MaxIdleSeconds
