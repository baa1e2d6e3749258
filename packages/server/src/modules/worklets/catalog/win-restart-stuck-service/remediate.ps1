<#
Patchwell worklet win-restart-stuck-service: remediation.
Gets the service $ServiceName running again. A service hanging in 'Start Pending' or
'Stop Pending' has its process killed first, but only when that process hosts no other
running service (shared svchost processes are never killed). Then the service is started
and waited for up to $WaitSeconds. Disabled services are left alone.
Exit 0 = running, 1 = not running, 2 = no such service.
#>
# Parameters: the service's short name, and how long to wait for it to run.
$ServiceName = 'Spooler'
$WaitSeconds = '60'

$fix = {
    param([string]$ServiceName, [string]$WaitSeconds)
    $filter = "Name='$($ServiceName -replace "'", "''")'"
    $service = Get-CimInstance -ClassName Win32_Service -Filter $filter
    if (-not $service) {
        Write-Output "There is no service named '$ServiceName'."
        exit 2
    }
    if ($service.StartMode -eq 'Disabled') {
        Write-Output "Not started: $ServiceName is disabled; enable it first if it should run."
        exit 1
    }
    if ($service.State -eq 'Start Pending' -or $service.State -eq 'Stop Pending') {
        # $PID is PowerShell's own process id, so the service's needs another name.
        $servicePid = [int]$service.ProcessId
        $sharing = @()
        if ($servicePid -gt 0) {
            $sharing = @(Get-CimInstance -ClassName Win32_Service -Filter "ProcessId=$servicePid" | Where-Object { $_.Name -ne $service.Name })
        }
        if ($servicePid -gt 0 -and $sharing.Count -eq 0) {
            Stop-Process -Id $servicePid -Force -ErrorAction SilentlyContinue
            Start-Sleep -Seconds 2
        } else {
            Write-Output "Not restarted: $ServiceName is stuck in a process shared with $($sharing.Count) other service(s); restart the device instead."
            exit 1
        }
    }
    try {
        $controller = Get-Service -Name $service.Name -ErrorAction Stop
        if ($controller.Status -eq 'Paused') {
            $controller.Continue()
        } elseif ($controller.Status -ne 'Running') {
            $controller.Start()
        }
        $controller.WaitForStatus('Running', [TimeSpan]::FromSeconds([int]$WaitSeconds))
    } catch {
        $state = (Get-CimInstance -ClassName Win32_Service -Filter $filter).State
        Write-Output "Failed: $ServiceName is $state after the restart attempt: $($_.Exception.Message)"
        exit 1
    }
    Write-Output "Remediated: $ServiceName is running."
    exit 0
}

# Use the 64-bit PowerShell, as every Patchwell worklet does under a 32-bit agent session.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix -args $ServiceName, $WaitSeconds
    exit $LASTEXITCODE
}
& $fix $ServiceName $WaitSeconds
