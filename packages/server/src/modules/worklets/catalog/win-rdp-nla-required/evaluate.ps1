<#
Patchwell worklet win-rdp-nla-required: evaluation.
Checks that Remote Desktop requires Network Level Authentication: UserAuthentication is 1
on the RDP-Tcp listener, and no policy (HKLM\SOFTWARE\Policies\Microsoft\Windows NT\Terminal
Services) sets it to 0. Checked whether or not Remote Desktop is currently allowed.
Changes nothing. Exit 0 = compliant, 1 = needs remediation.
#>
$check = {
    $listener = 'HKLM:\SYSTEM\CurrentControlSet\Control\Terminal Server\WinStations\RDP-Tcp'
    $policy = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows NT\Terminal Services'
    $local = (Get-ItemProperty -Path $listener -Name UserAuthentication -ErrorAction SilentlyContinue).UserAuthentication
    $forced = (Get-ItemProperty -Path $policy -Name UserAuthentication -ErrorAction SilentlyContinue).UserAuthentication
    $deny = (Get-ItemProperty -Path 'HKLM:\SYSTEM\CurrentControlSet\Control\Terminal Server' -Name fDenyTSConnections -ErrorAction SilentlyContinue).fDenyTSConnections
    $rdp = if ($deny -eq 0) { 'allowed' } else { 'not allowed' }
    if ($forced -eq 0) {
        Write-Output "A policy turns Network Level Authentication off (Remote Desktop is $rdp)."
        exit 1
    }
    if ($forced -eq 1 -or $local -eq 1) {
        Write-Output "Compliant: Remote Desktop requires Network Level Authentication (Remote Desktop is $rdp)."
        exit 0
    }
    Write-Output "Remote Desktop does not require Network Level Authentication (UserAuthentication=$local; Remote Desktop is $rdp)."
    exit 1
}

# HKLM\SOFTWARE is redirected for 32-bit processes; read the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
