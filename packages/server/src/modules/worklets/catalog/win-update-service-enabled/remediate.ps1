<#
Patchwell worklet win-update-service-enabled: remediation.
Sets the Windows Update (wuauserv) and BITS services back to their Windows defaults
(manual start, started on demand) when disabled, and removes the local policy value
NoAutoUpdate=1. A domain Group Policy that sets NoAutoUpdate writes it back at its next
refresh, and the device is flagged again: fix such a policy at its source.
Exit 0 = available, 1 = failed.
#>
$fix = {
    $failed = @()
    foreach ($name in @('wuauserv', 'BITS')) {
        $service = Get-CimInstance -ClassName Win32_Service -Filter "Name='$name'"
        if ($service -and $service.StartMode -eq 'Disabled') {
            & sc.exe config $name start= demand | Out-Null
            if ($LASTEXITCODE -ne 0) {
                $failed += $name
            }
        }
    }
    $au = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU'
    if ((Get-ItemProperty -Path $au -Name NoAutoUpdate -ErrorAction SilentlyContinue).NoAutoUpdate -eq 1) {
        Remove-ItemProperty -Path $au -Name NoAutoUpdate -ErrorAction SilentlyContinue
    }
    if ($failed.Count -gt 0) {
        Write-Output "Failed: could not re-enable $($failed -join ', ')."
        exit 1
    }
    Start-Service -Name wuauserv -ErrorAction SilentlyContinue
    Write-Output 'Remediated: Windows Update and BITS can start again and automatic updates are not turned off locally.'
    exit 0
}

# sc.exe and HKLM\SOFTWARE must be the 64-bit ones.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
