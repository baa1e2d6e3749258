<#
Patchwell worklet win-rdp-nla-required: remediation.
Sets UserAuthentication to 1 on the RDP-Tcp listener and, where a local policy value sets it
to 0, sets that to 1 too. Remote Desktop is not turned on or off; new connections need
Network Level Authentication, open sessions continue. A domain Group Policy can set the
policy value back. Exit 0 = required, 1 = failed.
#>
$fix = {
    $listener = 'HKLM:\SYSTEM\CurrentControlSet\Control\Terminal Server\WinStations\RDP-Tcp'
    $policy = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services'
    try {
        Set-ItemProperty -Path $listener -Name UserAuthentication -Type DWord -Value 1 -ErrorAction Stop
        if ((Get-ItemProperty -Path $policy -Name UserAuthentication -ErrorAction SilentlyContinue).UserAuthentication -eq 0) {
            Set-ItemProperty -Path $policy -Name UserAuthentication -Type DWord -Value 1 -ErrorAction Stop
        }
    } catch {
        Write-Output "Failed: $($_.Exception.Message)"
        exit 1
    }
    Write-Output 'Remediated: Remote Desktop requires Network Level Authentication.'
    exit 0
}

# HKLM\SOFTWARE is redirected for 32-bit processes; write the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
