<#
Patchwell worklet win-update-service-enabled: evaluation.
Checks that Windows can install updates: the Windows Update (wuauserv) and Background
Intelligent Transfer (BITS) services are not disabled, and no policy value NoAutoUpdate=1
turns automatic updates off. Patch policies need both services.
Changes nothing. Exit 0 = compliant, 1 = needs remediation.
#>
$check = {
    $problems = @()
    foreach ($name in @('wuauserv', 'BITS')) {
        $service = Get-CimInstance -ClassName Win32_Service -Filter "Name='$name'"
        if (-not $service) {
            $problems += "$name is missing"
        } elseif ($service.StartMode -eq 'Disabled') {
            $problems += "$name is disabled"
        }
    }
    $au = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU'
    if ((Get-ItemProperty -Path $au -Name NoAutoUpdate -ErrorAction SilentlyContinue).NoAutoUpdate -eq 1) {
        $problems += 'a policy turns automatic updates off (NoAutoUpdate=1)'
    }
    if ($problems.Count -eq 0) {
        Write-Output 'Compliant: the Windows Update and BITS services are available and automatic updates are not turned off.'
        exit 0
    }
    Write-Output "Windows Update is blocked: $($problems -join '; ')."
    exit 1
}

# HKLM\SOFTWARE is redirected for 32-bit processes; read the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
