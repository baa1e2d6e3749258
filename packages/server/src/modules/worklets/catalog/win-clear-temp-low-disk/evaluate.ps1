<#
Patchwell worklet win-clear-temp-low-disk: evaluation.
Checks that the system drive has at least $MinFreePercent percent of its space free.
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = cannot be checked.
#>
# Parameter: the least free space allowed on the system drive, in percent.
$MinFreePercent = '10'

$check = {
    param([string]$MinFreePercent)
    $disk = Get-CimInstance -ClassName Win32_LogicalDisk -Filter "DeviceID='$env:SystemDrive'"
    if (-not $disk -or -not $disk.Size) {
        Write-Output "Cannot read the size of $env:SystemDrive."
        exit 2
    }
    $free = [math]::Round(100 * $disk.FreeSpace / $disk.Size, 1)
    $freeGb = [math]::Round($disk.FreeSpace / 1GB, 1)
    if ($free -ge [double]$MinFreePercent) {
        Write-Output "Compliant: $env:SystemDrive has $free% free ($freeGb GB)."
        exit 0
    }
    Write-Output "$env:SystemDrive has only $free% free ($freeGb GB), under $MinFreePercent%."
    exit 1
}

# Use the 64-bit PowerShell, as every Patchwell worklet does under a 32-bit agent session.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check -args $MinFreePercent
    exit $LASTEXITCODE
}
& $check $MinFreePercent
