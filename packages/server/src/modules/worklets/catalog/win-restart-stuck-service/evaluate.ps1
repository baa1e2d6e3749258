<#
Patchwell worklet win-restart-stuck-service: evaluation.
Checks that the Windows service $ServiceName is running. Stopped, paused, or hanging in a
start or stop ('Start Pending', 'Stop Pending') needs remediation. A disabled service is
reported as such: it is not expected to run.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = no such service.
#>
# Parameter: the service's short name (as in 'sc.exe query'), e.g. Spooler.
$ServiceName = 'Spooler'

$check = {
    param([string]$ServiceName)
    $service = Get-CimInstance -ClassName Win32_Service -Filter "Name='$($ServiceName -replace "'", "''")'"
    if (-not $service) {
        Write-Output "There is no service named '$ServiceName'."
        exit 2
    }
    if ($service.State -eq 'Running') {
        Write-Output "Compliant: $ServiceName is running."
        exit 0
    }
    if ($service.StartMode -eq 'Disabled') {
        Write-Output "$ServiceName is disabled and $($service.State); remediation does not start disabled services."
        exit 1
    }
    Write-Output "$ServiceName is $($service.State) (start mode $($service.StartMode))."
    exit 1
}

# Use the 64-bit PowerShell, as every Patchwell worklet does under a 32-bit agent session.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check -args $ServiceName
    exit $LASTEXITCODE
}
& $check $ServiceName
